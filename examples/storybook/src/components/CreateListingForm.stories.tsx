import type { Meta, StoryObj } from "@storybook/react-vite";
import { expect } from "storybook/test";
import { mock, type ListingMockParameters } from "../../.storybook/listing-mock";
import { CreateListingForm } from "./CreateListingForm";

const meta = {
  title: "Listing/CreateListingForm",
  component: CreateListingForm,
} satisfies Meta<typeof CreateListingForm>;
export default meta;
type Story = StoryObj<typeof meta>;

/** The empty form. */
export const Blank: Story = {};

/** Sent without a street and with a state the contract does not take: the fields the service refused, each shown. */
export const Refused: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.type(canvas.getByRole("textbox", { name: "city" }), "Austin");
    await userEvent.type(canvas.getByRole("textbox", { name: "state" }), "Texas");
    await userEvent.type(canvas.getByRole("textbox", { name: "zip" }), "78701");
    await userEvent.click(canvas.getByRole("button", { name: "Create listing" }));
    const refused = await canvas.findByRole("list", { name: "Refused fields" });
    await expect(refused).toHaveTextContent("/street");
    await expect(canvas.getByRole("textbox", { name: /street/ })).toHaveAttribute("aria-invalid", "true");
    await expect(mock).toHaveReceived({ method: "POST", path: "/api/v1/object/property", status: 400 });
  },
};

/** A listing the service takes. */
export const Created: Story = {
  play: async ({ canvas, userEvent }) => {
    await userEvent.type(canvas.getByRole("textbox", { name: "street" }), "1 Main St");
    await userEvent.type(canvas.getByRole("textbox", { name: "city" }), "Austin");
    await userEvent.type(canvas.getByRole("textbox", { name: "state" }), "TX");
    await userEvent.type(canvas.getByRole("textbox", { name: "zip" }), "78701");
    await userEvent.click(canvas.getByRole("button", { name: "Create listing" }));
    await expect(await canvas.findByRole("status")).toHaveTextContent(/Listing \d+ created/);
    await expect(mock).toHaveReceived({
      method: "POST",
      path: "/api/v1/object/property",
      body: { street: "1 Main St", city: "Austin", state: "TX", zip: "78701" },
      status: 200,
    });
    await expect(mock.requests({ method: "POST" })[0]).toSatisfyContract();
  },
};

/** The service answers slowly: the button says the form is saving. */
export const Saving: Story = {
  parameters: { listingMock: { latency: 1500 } satisfies ListingMockParameters },
  play: async ({ canvas, userEvent }) => {
    await userEvent.type(canvas.getByRole("textbox", { name: "street" }), "1 Main St");
    await userEvent.click(canvas.getByRole("button", { name: "Create listing" }));
    await expect(canvas.getByRole("button", { name: "Saving…" })).toBeDisabled();
    await canvas.findByRole("alert", {}, { timeout: 10_000 });
  },
};
