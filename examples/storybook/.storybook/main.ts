import type { StorybookConfig } from "@storybook/react-vite";

const config: StorybookConfig = {
  framework: "@storybook/react-vite",
  stories: ["../src/**/*.stories.tsx"],
  addons: ["@storybook/addon-vitest"],
  // public/ holds MSW's worker script (npx msw init public), served at /mockServiceWorker.js.
  staticDirs: ["../public"],
  // Nothing leaves the machine: no usage reports to Storybook's servers, no "what's new" fetched from them (and
  // `npm run storybook` passes --no-version-updates: no check for a newer Storybook).
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
};

export default config;
