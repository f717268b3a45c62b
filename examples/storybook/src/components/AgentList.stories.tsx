import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect } from "storybook/test";
import { mock, type ListingMockParameters } from "../../.storybook/listing-mock";
import { AgentList } from "./AgentList";

const meta = {
  title: "Listing/AgentList",
  component: AgentList,
} satisfies Meta<typeof AgentList>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The shipped fixtures: six agents of ten seats. */
export const Fixture: Story = {
  play: async ({ canvas }) => {
    await canvas.findByText("6 of 10 seats taken");
    await expect(canvas.getAllByRole("listitem")).toHaveLength(6);
  },
};

/** A first-run account: no agent yet. */
export const Empty: Story = {
  parameters: { listingMock: { state: "empty-account" } satisfies ListingMockParameters },
  play: async ({ canvas }) => {
    await canvas.findByText("No agents yet.");
    await expect(canvas.getByText("0 of 10 seats taken")).toBeVisible();
  },
};

/** Every seat taken: adding one more is refused by the service, and the list says why. */
export const SeatsFull: Story = {
  parameters: { listingMock: { state: "seats-full" } satisfies ListingMockParameters },
  play: async ({ canvas, userEvent }) => {
    await canvas.findByText("10 of 10 seats taken");
    await userEvent.click(canvas.getByRole("button", { name: "Add agent (no seat left)" }));
    await expect(await canvas.findByRole("alert")).toHaveTextContent("Not Enough Agent Seats");
    await expect(mock).toHaveReceived(
      { method: "POST", path: "/api/v1/object/agent_card/", status: 402 },
      { times: 1 },
    );
    await expect(mock.requests({ method: "POST" })[0]).toSatisfyContract();
  },
};
