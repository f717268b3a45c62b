import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect } from "storybook/test";
import { mock, type ListingMockParameters } from "../../.storybook/listing-mock";
import { bungalow } from "../mocks/bungalow";
import { PropertyCard } from "./PropertyCard";

const meta = {
  title: "Listing/PropertyCard",
  component: PropertyCard,
  args: { nid: 1001 },
} satisfies Meta<typeof PropertyCard>;
export default meta;
type Story = StoryObj<typeof meta>;

/** A listing of the shipped fixtures. */
export const Fixture: Story = {
  play: async ({ canvas }) => {
    await canvas.findByRole("heading", { name: "Light-Filled 1-Bed Property in Fort Toreyhaven" });
    await expect(mock).toHaveReceived({ method: "GET", path: "/api/v1/object/property/1001", status: 200 });
    await expect(mock.requests()[0]).toSatisfyContract();
  },
};

/** A listing of the story's own records: the account, its one property and two floorplans, nothing else. */
export const OwnRecord: Story = {
  args: { nid: 5001 },
  parameters: {
    listingMock: {
      state: bungalow,
    } satisfies ListingMockParameters,
  },
  play: async ({ canvas }) => {
    await canvas.findByRole("heading", { name: "Story-Ready Bungalow with Two Floorplans" });
    await expect(canvas.getByText(/\$450,000/)).toBeVisible();
  },
};

/** The service answers slowly: the card shows it is loading, then the listing. */
export const Slow: Story = {
  parameters: { listingMock: { latency: 1500 } satisfies ListingMockParameters },
  play: async ({ canvas }) => {
    await expect(canvas.getByText("Loading listing 1001…")).toBeVisible();
    await canvas.findByRole("heading", { name: /Fort Toreyhaven/ }, { timeout: 10_000 });
  },
};

/** The service is down: the card shows the problem it answered. */
export const ServiceDown: Story = {
  parameters: {
    listingMock: { faults: [{ path: "/api/v1/object/property/{nid}", status: 503 }] } satisfies ListingMockParameters,
  },
  play: async ({ canvas }) => {
    await expect(await canvas.findByRole("alert")).toHaveTextContent("Injected Fault");
  },
};
