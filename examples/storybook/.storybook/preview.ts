import type { Preview } from "@storybook/react-vite";
import { setupWorker } from "msw/browser";
import { mswLoader } from "msw-storybook-addon/csf3";
import {
  matchers,
  type ContractMatcherOptions,
  type ReceivedOptions,
  type ReceivedPattern,
} from "property-listing-kit/matchers";
import { expect } from "storybook/test";
import { applyListingMock, mock, type ListingMockParameters } from "./listing-mock";

// toHaveReceived and toSatisfyContract in a story's play, in the UI as under the Vitest addon.
expect.extend(matchers);

// In the browser's console (the story's frame, "storybook-preview-iframe"): listingMock.requests() is the journal.
(globalThis as { listingMock?: typeof mock }).listingMock = mock;

const preview: Preview = {
  loaders: [
    // MSW's worker, started once, answers the stories' requests with the kit's handlers; they are its initial
    // handlers, so they outlive the addon's reset between stories. Anything else goes to the network as usual.
    mswLoader(async () => {
      const worker = setupWorker(...mock.handlers);
      await worker.start({ onUnhandledRequest: "bypass", quiet: true });
      return worker;
    }),
  ],
  // Before each story renders: the state its parameters ask for, whatever ran before it.
  beforeEach({ id, parameters }) {
    applyListingMock(id, parameters.listingMock as ListingMockParameters | undefined);
  },
};

export default preview;

// The two matchers in the types of Storybook's expect (whose assertions are @vitest/expect's, made awaitable).
declare module "@vitest/expect" {
  interface JestAssertion<T = any> {
    toHaveReceived(pattern: ReceivedPattern, options?: ReceivedOptions): void;
    toSatisfyContract(options?: ContractMatcherOptions): void;
  }
}
