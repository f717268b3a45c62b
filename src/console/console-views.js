// The console's views: plain DOM built from what the admin routes answer, with no state and no request of their
// own. console.js, loaded after this file, keeps the state, talks to the mock and decides what to show when.
"use strict";
const consoleViews = (() => {
  const $ = (id) => document.getElementById(id);

  /** An element with its text and attributes; children appended. Text is always text, never markup. */
  const el = (tag, attributes, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "text") node.textContent = value;
      else if (name === "class") node.className = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : String(value));
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  };

  const problemText = (body) => {
    if (!body) return "The mock refused it.";
    const fields = (body.errors || []).map((error) => `${error.pointer || "(body)"} ${error.detail}`);
    return [body.detail || body.title, ...fields].join(" · ");
  };

  const say = (id, text, isError) => {
    const node = $(id);
    node.textContent = text;
    node.className = isError ? "error" : "note";
  };

  // ---- the list ------------------------------------------------------------------------------------------
  const statusClass = (status) => (status === null ? "pending" : status >= 500 ? "s5" : status >= 400 ? "s4" : "s2");

  const steeredText = (fault) => {
    if (!fault) return "";
    const parts = [];
    if (fault.rule) {
      const rule = fault.rule;
      parts.push(
        (
          `rule ${rule.id}: ` +
          `${rule.drop ? "dropped" : rule.status !== undefined ? rule.status : ""}` +
          `${rule.delay ? ` +${rule.delay} ms` : ""}`
        ).replace(/: $/, ""),
      );
    }
    if (fault.prefer)
      parts.push(
        `Prefer${fault.prefer.code !== undefined ? ` code=${fault.prefer.code}` : ""}` +
          `${fault.prefer.delay !== undefined ? ` delay=${fault.prefer.delay}` : ""}`,
      );
    if (fault.latency !== undefined) parts.push(`latency ${fault.latency} ms`);
    return parts.join(" · ");
  };

  /** A request's row: `open` opens it, `selected` marks it, `hidden` hides it under the filter. */
  const row = (call, { open, selected, hidden }) => {
    const status = call.status === null ? (call.durationMs === null ? "…" : "none") : String(call.status);
    const path = el(
      "td",
      { class: "path" },
      el("button", {
        type: "button",
        class: "open",
        "aria-label": `Open ${call.method} ${call.url}`,
        onclick: () => open(call.id),
        text: call.url,
      }),
    );
    if (call.errors?.length) {
      path.append(
        el(
          "ul",
          { class: "fields", "aria-label": "Offending fields" },
          ...call.errors.map((error) =>
            el(
              "li",
              {},
              el("code", { text: `${error.in ? `${error.in} ` : ""}${error.pointer || "/"}` }),
              ` ${error.detail}`,
            ),
          ),
        ),
      );
    } else if (call.problem && call.status >= 400) {
      path.append(el("div", { class: "note", text: call.problem }));
    }
    if (call.responseInvalid)
      path.append(
        el("div", { class: "badge bad", text: "the mock's answer broke the contract (--validate-responses)" }),
      );
    const steered = steeredText(call.fault);
    return el(
      "tr",
      {
        "data-id": call.id,
        class: `${call.responseInvalid ? "invalid-answer" : ""}${selected ? " selected" : ""}`,
        hidden,
      },
      el("td", { class: "time", text: call.time.slice(11, 23) }),
      el("td", { class: `method m-${call.method.toLowerCase()}`, text: call.method }),
      path,
      el("td", { class: "operation", text: call.operationId || "—" }),
      el("td", {}, el("span", { class: `status ${statusClass(call.status)}`, text: status })),
      el("td", { class: "num", text: call.durationMs === null ? "" : String(Math.round(call.durationMs)) }),
      el("td", { text: call.uid === null ? "—" : `uid ${call.uid}` }),
      el("td", {}, steered ? el("span", { class: "badge steer", text: steered }) : null),
    );
  };

  // ---- one request opened --------------------------------------------------------------------------------
  const headerList = (headers) =>
    el(
      "dl",
      { class: "headers" },
      ...Object.entries(headers).flatMap(([name, value]) => [el("dt", { text: name }), el("dd", { text: value })]),
    );

  const bodyBlock = (label, part) => {
    if (!part || part.body === null) return el("p", { class: "note", text: `${label}: none` });
    const cut = part.bodyTruncated ? ` (the first part of ${part.bodySize} bytes: the journal keeps 16 KiB)` : "";
    return el(
      "div",
      {},
      el("h4", { text: `${label}${cut}` }),
      el("pre", { class: "body", tabindex: "0", "aria-label": label, text: part.body }),
    );
  };

  /** What one request opened shows: what was sent, what the mock answered, and the request as a curl line to copy. */
  const detail = (call) => {
    const copied = el("span", { role: "status", class: "note" });
    const curl = el("textarea", { id: "curl", readonly: true, rows: "4", spellcheck: "false", text: call.curl });
    const copy = async () => {
      try {
        await navigator.clipboard.writeText(call.curl);
      } catch {
        curl.select();
        document.execCommand("copy");
      }
      copied.textContent = "Copied. Set API_KEY and TOKEN in your shell first.";
    };
    const status = call.status === null ? "no answer" : String(call.status);
    return [
      el(
        "h3",
        {},
        `${call.method} ${call.url} `,
        el("span", { class: `status ${statusClass(call.status)}`, text: status }),
      ),
      el("p", {
        class: "note",
        text:
          `${call.operationId || "no operation of the contract"} · ` +
          `${call.durationMs === null ? "pending" : `${call.durationMs} ms`} · ` +
          `${call.uid === null ? "no account" : `uid ${call.uid}`}` +
          `${steeredText(call.fault) ? ` · ${steeredText(call.fault)}` : ""}`,
      }),
      call.responseInvalid
        ? el("p", {
            class: "badge bad",
            text:
              "The mock's answer broke the contract, so it answered 500 in its place (--validate-responses): a " +
              "bug of the mock.",
          })
        : null,
      call.errors?.length
        ? el(
            "div",
            {},
            el("h4", { text: "Offending fields" }),
            el(
              "ul",
              { class: "fields" },
              ...call.errors.map((error) =>
                el("li", {}, el("code", { text: `${error.in || ""} ${error.pointer || "/"}` }), ` ${error.detail}`),
              ),
            ),
          )
        : null,
      el(
        "div",
        { class: "pair" },
        el(
          "div",
          {},
          el("h4", { text: "Request headers" }),
          headerList(call.request.headers),
          bodyBlock("Request body", call.request),
        ),
        el(
          "div",
          {},
          el("h4", { text: "Answer headers" }),
          call.answer ? headerList(call.answer.headers) : el("p", { class: "note", text: "No answer." }),
          bodyBlock("Answer body", call.answer),
        ),
      ),
      el(
        "div",
        { class: "curl" },
        el("label", { for: "curl", text: "Copy as curl (credentials as $API_KEY and $TOKEN)" }),
        curl,
        el("button", { type: "button", onclick: copy, text: "Copy as curl" }),
        copied,
      ),
    ].filter(Boolean);
  };

  // ---- fault rules ---------------------------------------------------------------------------------------
  const ruleText = (rule, operations) => {
    const operation = operations.find((op) => op.method === rule.method && op.path === rule.path);
    const target = `${rule.method || "any method"} ${rule.path}${operation ? ` (${operation.operationId})` : ""}`;
    const effect = [
      rule.drop ? "drop the connection" : rule.status !== undefined ? `answer ${rule.status}` : "",
      rule.delay ? `after ${rule.delay} ms` : "",
    ]
      .filter(Boolean)
      .join(" ");
    const times =
      rule.times !== undefined ? `, ${rule.times} more time${rule.times === 1 ? "" : "s"}` : ", until removed";
    return `#${rule.id} ${target}: ${effect}${times}`;
  };

  /**
   * The statuses a rule can answer for an operation: its documented errors, and the server errors any service can give.
   */
  const statusesOf = (operation) => {
    const documented = operation
      ? operation.responses
          .filter((response) => response.documented && Number(response.status) >= 400)
          .map((response) => Number(response.status))
      : [];
    return [...new Set([...documented, 500, 502, 503, 504])].sort((a, b) => a - b);
  };

  // ---- coverage ------------------------------------------------------------------------------------------
  /** A row per operation: each of its responses as a chip, hit or not, documented or not. */
  const coverageRows = (report) =>
    report.operations.map((operation) =>
      el(
        "tr",
        { class: operation.count ? "hit" : "miss", "data-operation": operation.operationId },
        el(
          "td",
          {},
          el("div", { text: operation.operationId }),
          el("code", { class: "note", text: `${operation.method} ${operation.path}` }),
        ),
        el(
          "td",
          {},
          ...operation.responses.map((response) =>
            el("span", {
              class: `chip ${response.count ? "hit" : ""} ${response.documented ? "" : "undocumented"}`,
              title:
                `${response.documented ? "documented" : "not documented"}` +
                `${response.assumptions.length ? `; rests on ${response.assumptions.join(", ")}` : ""}`,
              text: response.count ? `${response.status} ×${response.count}` : response.status,
            }),
          ),
        ),
      ),
    );

  /** The assumptions the answers rested on, or a line saying there is none yet. */
  const assumptionItems = (report) =>
    report.assumptions.length
      ? report.assumptions.map((assumption) =>
          el(
            "li",
            {},
            el("strong", { text: assumption.id }),
            ` ${assumption.place} (×${assumption.count}): `,
            el("span", { class: "note", text: assumption.text }),
          ),
        )
      : [el("li", { class: "note", text: "None yet." })];

  return { $, el, problemText, say, row, detail, ruleText, statusesOf, coverageRows, assumptionItems };
})();
