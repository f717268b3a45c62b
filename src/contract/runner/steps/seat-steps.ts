import type { Exchange } from "../http-exchange.ts";
import type { RunContext } from "../run-context.ts";
import { judgeDuplicate } from "./agent-steps.ts";
import { API, record, refused, type RunNames } from "./step-support.ts";

/** How many agents the run creates at most, looking for the seat limit, when the limit is not given. */
export const SEAT_PROBE_LIMIT = 25;

/** Options of {@link seatSteps}. */
export interface SeatOptions {
  /** The fresh account's seat limit, when the caller knows it. */
  seats?: number;
  /** Production: do not fill seats; the checks are reported as skipped. */
  skip: boolean;
}

/** What the seat steps found that is not a verdict: another client changed the fresh account meanwhile. */
export interface SeatOutcome {
  clash?: string;
}

const NAMED = "Not Enough Agent Seats";
const EXISTS = "Agent Already Exists";

/**
 * Sections 7 and 8, on the fresh account (one without agents): agents are created until the account's seats
 * are full; the next is refused with Not Enough Agent Seats; a create that breaks both rules (a taken email on
 * a full account) is refused with either error, since the document gives no precedence; deleting an agent frees
 * its seat and its email. Every agent made here is deleted again.
 */
export async function seatSteps(ctx: RunContext, names: RunNames, options: SeatOptions): Promise<SeatOutcome> {
  const step = "fill the fresh account's agent seats";
  if (options.skip) {
    ctx.skip(
      "agent_seat_limit",
      step,
      "--skip-seat-checks: the run does not fill agent seats (for a production account)",
    );
    return {};
  }
  if (!ctx.has("fresh")) {
    ctx.skip("agent_seat_limit", step, "no account without agents given (--fresh-api-key and --fresh-token)");
    return {};
  }
  const ours: Array<{ nid: string; email: string }> = [];
  const limit = options.seats ?? SEAT_PROBE_LIMIT;
  let full: Exchange | undefined;
  let duplicate: Exchange | undefined;
  for (let index = 0; index <= limit; index += 1) {
    const email = `seat-${index}-${names.tag}@contract-run.example`.toLowerCase();
    const answer = await ctx.call(
      `create agent ${index + 1} on the fresh account`,
      "createAgentCard",
      `${API}/agent_card/`,
      {
        as: "fresh",
        body: { agent_first_name: "Seat", agent_last_name: `${index + 1} ${names.tag}`, email },
        expect: "any",
      },
    );
    if (!answer) {
      // How many seats were taken is unknown: the limit cannot be judged (the agents made are deleted by the clean-up).
      ctx.skip("agent_seat_limit", step, ctx.missing([answer]) ?? "the create got no answer");
      return {};
    }
    const nid = record(answer)?.nid;
    if (answer.status === 200 && typeof nid === "string") {
      ours.push({ nid, email });
      if (index === 0) {
        // The email rule where only it may apply: judged once the run knows whether a seat was still free.
        duplicate = await ctx.call(
          "create an agent with the first agent's email on the fresh account",
          "createAgentCard",
          `${API}/agent_card/`,
          {
            as: "fresh",
            body: { agent_first_name: "Seat", agent_last_name: `duplicate ${names.tag}`, email },
            expect: "any",
          },
        );
        const accepted = record(duplicate)?.nid;
        if (typeof accepted === "string") ours.push({ nid: accepted, email });
      }
      continue;
    }
    full = answer;
    break;
  }

  try {
    const clash = await foreignAgents(
      ctx,
      ours.map(({ nid }) => nid),
    );
    if (clash) {
      ctx.skip("agent_seat_limit", step, clash);
      return { clash };
    }
    if (options.seats !== undefined) {
      ctx.check("agent_seat_limit", {
        step,
        exchange: full,
        operation: "createAgentCard",
        section: "8",
        passed: ours.length === options.seats && full !== undefined,
        message:
          ours.length < options.seats
            ? `agent ${ours.length + 1} was refused although the account has ${options.seats} seats (--fresh-seats)`
            : `the account has ${options.seats} seats (--fresh-seats), and agent ${options.seats + 1} was accepted`,
        expected: `${options.seats} agents accepted, agent ${options.seats + 1} refused`,
        actual: `${ours.length} accepted${full ? `, then ${full.status}` : ""}`,
      });
    }
    if (!full) {
      if (options.seats === undefined)
        ctx.skip(
          "agent_seat_limit",
          step,
          `no refusal within ${SEAT_PROBE_LIMIT} agents; give the account's limit with --fresh-seats`,
        );
      return {};
    }
    if (refused(full) && ours.length > 0) {
      ctx.check("agent_seat_limit", {
        step: `create agent ${ours.length + 1} on the full fresh account`,
        passed: full.text.includes(NAMED),
        exchange: full,
        operation: "createAgentCard",
        section: "7",
        message: `the refusal does not name the error value ${NAMED}`,
        expected: `a refusal naming ${NAMED}`,
        actual: `${full.status} ${full.text.slice(0, 200)}`,
      });
    }
    if (ours.length === 0) return {};
    // With a second agent created after it, the duplicate met a free seat: only Agent Already Exists is right.
    judgeDuplicate(
      ctx,
      "create an agent with the first agent's email on the fresh account",
      duplicate,
      ours.length >= 2,
    );

    // Both rules broken at once: either named error is right (section 7 gives no precedence).
    const both = await ctx.call(
      "create an agent with a taken email on the full account",
      "createAgentCard",
      `${API}/agent_card/`,
      {
        as: "fresh",
        body: { agent_first_name: "Seat", agent_last_name: `taken ${names.tag}`, email: ours[0]!.email },
        expect: { refusal: "agent_seat_limit", section: "7", rule: "the account is full and the email is taken" },
      },
    );
    if (refused(both)) {
      ctx.check("agent_seat_limit", {
        step: "create an agent with a taken email on the full account",
        passed: both!.text.includes(NAMED) || both!.text.includes(EXISTS),
        exchange: both,
        operation: "createAgentCard",
        section: "7",
        message: `the refusal names neither ${NAMED} nor ${EXISTS}`,
        expected: `a refusal naming ${NAMED} or ${EXISTS}`,
        actual: `${both!.status} ${both!.text.slice(0, 200)}`,
      });
    }

    // A deleted agent frees its seat and its email: one create shows both.
    const freed = ours.shift()!;
    const deleted = await ctx.call(
      "delete an agent of the full account",
      "deleteAgentCard",
      `${API}/agent_card/${freed.nid}`,
      { as: "fresh", expect: "success" },
    );
    const again = await ctx.call(
      "create an agent with the deleted agent's email on the freed seat",
      "createAgentCard",
      `${API}/agent_card/`,
      {
        as: "fresh",
        needs: [deleted],
        body: { agent_first_name: "Seat", agent_last_name: `again ${names.tag}`, email: freed.email },
        expect: "any",
      },
    );
    ctx.check("agent_seat_limit", {
      step: "create an agent with the deleted agent's email on the freed seat",
      passed: again?.status === 200,
      exchange: again,
      operation: "createAgentCard",
      section: "8",
      message: "deleting an agent did not free its seat and email for a new agent",
      expected: "200",
      actual: again ? `${again.status} ${again.text.slice(0, 200)}` : "no answer",
    });
    const againNid = record(again)?.nid;
    if (typeof againNid === "string") ours.push({ nid: againNid, email: freed.email });
    return {};
  } finally {
    for (const { nid } of ours)
      await ctx.call("delete a seat agent", "deleteAgentCard", `${API}/agent_card/${nid}`, {
        as: "fresh",
        expect: "any",
      });
  }
}

/** Agents on the fresh account that this run did not create: another client is using it (two runs at once?). */
async function foreignAgents(ctx: RunContext, ours: string[]): Promise<string | undefined> {
  const listed = record(
    await ctx.call("list the fresh account's agents", "listAgentCards", `${API}/agent_cards`, {
      as: "fresh",
      expect: "success",
    }),
  );
  if (!listed) return undefined;
  const foreign = Object.keys(listed).filter((nid) => !ours.includes(nid));
  return foreign.length === 0
    ? undefined
    : `the fresh account holds ${foreign.length} agent${foreign.length === 1 ? "" : "s"} this run did not ` +
        `create (${foreign.slice(0, 5).join(", ")}): another run or client is using it at the same time, so its ` +
        `seat count proves nothing`;
}
