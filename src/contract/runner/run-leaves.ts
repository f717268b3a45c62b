import type { Exchange } from "./http-exchange.ts";
import type { CreatedRecord as ReportedRecord } from "./run-report.ts";
import type { AccountName, CredentialMode, Sender } from "./sender.ts";

/** A property the run created: the service has no operation to delete one, so the run labels it instead. */
export interface CreatedProperty {
  nid: string;
  /** What made it: a step of the scenario, or a generated case. */
  by: string;
  account: AccountName;
  /** The title and external id the run gave it at its end, saying which run made it; or why it could not. */
  label?: { title: string; externalId: string } | { failed: string };
}

interface CreatedRecord {
  kind: "agent" | "document";
  nid: string;
  as: AccountName;
}

const API = "/api/v1/object";

/**
 * What a run leaves on the service (docs/runner-in-ci.md, What a run leaves): the records it created, kept current from
 * its answers; at its end every property labelled with the run's tag (a property cannot be deleted) and every agent
 * and document it still holds deleted; and the list of what stays, for the report.
 */
export class RunLeaves {
  /** Properties the run created, in order: the service has no operation to delete them. */
  readonly properties: CreatedProperty[] = [];
  /** Creates that got no answer: the service may have made a record the run cannot name, nor delete. */
  readonly unknownCreates: string[] = [];
  readonly #created = new Map<string, CreatedRecord>();

  /** Notes a property the run created (once per nid), to label it at the end and list it in the report. */
  noteProperty(nid: string, by: string, account: AccountName = "primary"): boolean {
    if (this.properties.some((known) => known.nid === nid)) return false;
    this.properties.push({ nid, by, account });
    return true;
  }

  /** Notes an agent or document the run created, to delete at the end with its account's credentials. */
  noteRecord(kind: "agent" | "document", nid: string, as: AccountName): void {
    this.#created.set(`${kind}:${nid}`, { kind, nid, as });
  }

  /** Notes a create that got no answer: the service may have made a record the run cannot name. */
  noteUnknownCreate(step: string, method: string, path: string): void {
    this.unknownCreates.push(
      `perhaps a record of the create at "${step}" (${method} ${path} got no answer: the service may have made it)`,
    );
  }

  /**
   * Keeps the list of created records current from an answer: what a create made, what a delete removed. True
   * when the answer made a property the run did not know.
   */
  track(
    step: string,
    operationId: string,
    path: string,
    exchange: Exchange,
    account: AccountName,
    credentials: CredentialMode = "valid",
  ): boolean {
    if (exchange.status !== 200) return false;
    const body = exchange.body as { nid?: unknown } | undefined;
    const nid =
      body !== null && typeof body === "object" && (typeof body.nid === "string" || typeof body.nid === "number")
        ? String(body.nid)
        : undefined;
    const how = credentials === "valid" ? "" : ` (created with ${credentials} credentials)`;
    // A record created with broken credentials belongs to whichever account the service chose; the account's
    // own credentials are the best guess for deleting it.
    let made = false;
    if (operationId === "createProperty" && nid)
      made = this.noteProperty(nid, `made by the step "${step}"${how}`, account);
    if (operationId === "createAgentCard" && nid) this.noteRecord("agent", nid, account);
    if (operationId === "createDocument" && nid) this.noteRecord("document", nid, account);
    const deleted = path.split("/").pop() ?? "";
    if (operationId === "deleteAgentCard") this.#created.delete(`agent:${deleted}`);
    if (operationId === "deleteDocument") this.#created.delete(`document:${deleted}`);
    return made;
  }

  /**
   * Labels every property, deletes every agent and document the run created and has not deleted yet, with the
   * credentials of the account it was created under, and returns what is left behind and why, with the number of
   * requests sent. Runs after an interruption too.
   */
  async cleanUp(
    sender: Sender,
    about: { tag?: string; lostContact?: string },
  ): Promise<{ leftBehind: string[]; sent: number }> {
    let sent = await this.#labelProperties(sender, about);
    const leftBehind = this.properties.map((property) => {
      const label =
        property.label && "title" in property.label
          ? `, titled ${JSON.stringify(property.label.title)} with external id ${property.label.externalId}`
          : property.label
            ? `, not labelled (${property.label.failed})`
            : "";
      return `property ${property.nid}, ${property.by}${label} (the service has no operation to delete a property)`;
    });
    leftBehind.push(...this.unknownCreates);
    for (const record of this.#created.values()) {
      const path = record.kind === "agent" ? `${API}/agent_card/${record.nid}` : `${API}/document/${record.nid}`;
      const answer = await sender.sendCleanup(record.as, "DELETE", path);
      sent += 1;
      if (answer.ok && answer.exchange.status === 200) continue;
      leftBehind.push(
        `${record.kind} ${record.nid} of the ${record.as} account (DELETE ${path} ` +
          `${answer.ok ? `answered ${answer.exchange.status}` : `got no answer: ${answer.failure.reason}`})`,
      );
    }
    this.#created.clear();
    return { leftBehind, sent };
  }

  /** Every property the run created and left, with its label, for the report. */
  reported(): ReportedRecord[] {
    return this.properties.map((property) => ({
      kind: "property" as const,
      nid: property.nid,
      by: property.by,
      ...(property.label && "title" in property.label
        ? { title: property.label.title, externalId: property.label.externalId }
        : {}),
      ...(property.label && "failed" in property.label ? { notLabelled: property.label.failed } : {}),
    }));
  }

  /**
   * Gives every property the run created a title and an external id that say which run made it (section 4.1,
   * endpoint 4: an edit takes any field of 2.1 with a string value), so that whoever finds one on the account
   * knows where it came from: `Contract Run <tag> (k)` and `contract-<tag>-k`, one external id per property. A
   * property is labelled at the end, after every check that reads its title or external id, and whatever a
   * generated case wrote there before. Not when the service stopped answering: each edit would wait for nothing.
   */
  async #labelProperties(
    sender: Sender,
    { tag, lostContact }: { tag?: string; lostContact?: string },
  ): Promise<number> {
    if (!tag) return 0;
    let sent = 0;
    for (const [index, property] of this.properties.entries()) {
      if (property.label) continue;
      if (lostContact) {
        property.label = { failed: "the service stopped answering before the run could label it" };
        continue;
      }
      const label = { title: `Contract Run ${tag} (${index + 1})`, externalId: `contract-${tag}-${index + 1}` };
      const answer = await sender.sendCleanup(
        property.account,
        "PUT",
        `${API}/property/${encodeURIComponent(property.nid)}`,
        { title: label.title, external_id: label.externalId },
      );
      sent += 1;
      property.label =
        answer.ok && answer.exchange.status === 200
          ? label
          : {
              failed: answer.ok
                ? `the edit answered ${answer.exchange.status}`
                : `the edit got no answer: ${answer.failure.reason}`,
            };
    }
    return sent;
  }
}
