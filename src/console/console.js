// The mock's console: plain DOM, no library, no build step. Everything it reads comes from the mock's admin
// routes, behind the admin guard; with an admin token, nothing is read until it is given.
"use strict";
(() => {
  const MAX_ROWS = 500;
  const $ = (id) => document.getElementById(id);
  let token = null;
  let operations = [];
  let selected = null;
  let following = null;
  const calls = new Map();

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

  class Locked extends Error {}

  /** A call to an admin route: JSON in and out, the token as a bearer; a 401 asks for the token again. */
  const admin = async (path, options = {}) => {
    const headers = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const answer = await fetch(path, { method: options.method || "GET", headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), cache: "no-store" });
    if (answer.status === 401) {
      lock(token ? "That token was refused." : "");
      throw new Locked();
    }
    const body = await answer.json().catch(() => null);
    return { ok: answer.ok, status: answer.status, body };
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

  // ---- the token gate ------------------------------------------------------------------------------------
  const lock = (message) => {
    token = null;
    if (following) following.abort();
    following = null;
    calls.clear();
    $("calls").replaceChildren();
    $("detail-body").replaceChildren();
    $("app").hidden = true;
    $("token-gate").hidden = false;
    $("token-error").textContent = message || "";
    $("connection").textContent = "Locked: the admin token is needed.";
    $("token").focus();
  };

  $("token-form").addEventListener("submit", (event) => {
    event.preventDefault();
    token = $("token").value;
    $("token").value = "";
    start();
  });

  // ---- start ---------------------------------------------------------------------------------------------
  const start = async () => {
    try {
      const state = await admin("/__admin/state");
      if (!state.ok) {
        $("connection").textContent = `The mock refused the console: ${problemText(state.body)}`;
        return;
      }
      $("token-gate").hidden = true;
      $("app").hidden = false;
      showStates(state.body);
      await Promise.all([loadCoverage(), loadFaults(), loadLatency()]);
      follow();
    } catch (error) {
      if (!(error instanceof Locked)) $("connection").textContent = "The mock cannot be reached.";
    }
  };

  // ---- the live journal (server-sent events over a fetch, so that the token goes in a header) -----------
  const follow = async () => {
    const controller = new AbortController();
    following = controller;
    try {
      const headers = token ? { authorization: `Bearer ${token}` } : {};
      const answer = await fetch("/__admin/events", { headers, signal: controller.signal, cache: "no-store" });
      if (answer.status === 401) return lock("That token was refused.");
      if (!answer.ok || !answer.body) throw new Error(String(answer.status));
      const reader = answer.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = "";
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          received(block);
        }
      }
    } catch {
      // gone: tried again below
    }
    if (following !== controller) return;
    $("connection").textContent = "Disconnected; reconnecting…";
    setTimeout(() => following === controller && follow(), 2000);
  };

  const received = (block) => {
    let event = "message";
    let data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    }
    if (event === "ready") {
      $("connection").textContent = "Live: requests show as they arrive.";
      loadJournal();
    } else if (event === "cleared") {
      calls.clear();
      $("calls").replaceChildren();
      showDetailHint();
      countCalls();
      loadStates();
      loadFaults();
      loadLatency();
    } else if (event === "call") {
      const call = JSON.parse(data);
      show(call);
      if (call.status !== null || call.durationMs !== null) {
        soon("coverage", loadCoverage);
        if (call.fault && call.fault.rule) soon("faults", loadFaults);
      }
    }
  };

  const timers = {};
  /** Runs `work` once after a short quiet moment, however many events ask for it meanwhile. */
  const soon = (name, work) => {
    clearTimeout(timers[name]);
    timers[name] = setTimeout(work, 150);
  };

  const loadJournal = async () => {
    const listed = await admin("/__admin/journal");
    if (!listed.ok) return;
    for (const call of listed.body.calls) show(call);
  };

  // ---- the list ------------------------------------------------------------------------------------------
  const statusClass = (status) => (status === null ? "pending" : status >= 500 ? "s5" : status >= 400 ? "s4" : "s2");

  const steeredText = (fault) => {
    if (!fault) return "";
    const parts = [];
    if (fault.rule) {
      const rule = fault.rule;
      parts.push(`rule ${rule.id}: ${rule.drop ? "dropped" : rule.status !== undefined ? rule.status : ""}${rule.delay ? ` +${rule.delay} ms` : ""}`.replace(/: $/, ""));
    }
    if (fault.prefer) parts.push(`Prefer${fault.prefer.code !== undefined ? ` code=${fault.prefer.code}` : ""}${fault.prefer.delay !== undefined ? ` delay=${fault.prefer.delay}` : ""}`);
    if (fault.latency !== undefined) parts.push(`latency ${fault.latency} ms`);
    return parts.join(" · ");
  };

  const matches = (call) => {
    if ($("only-errors").checked && !(call.status === null || call.status >= 400)) return false;
    const wanted = $("filter").value.trim().toLowerCase();
    if (!wanted) return true;
    return `${call.method} ${call.url} ${call.operationId || ""} ${call.status ?? ""}`.toLowerCase().includes(wanted);
  };

  const row = (call) => {
    const status = call.status === null ? (call.durationMs === null ? "…" : "none") : String(call.status);
    const path = el("td", { class: "path" }, el("button", { type: "button", class: "open", "aria-label": `Open ${call.method} ${call.url}`, onclick: () => open(call.id), text: call.url }));
    if (call.errors && call.errors.length) {
      path.append(el("ul", { class: "fields", "aria-label": "Offending fields" }, ...call.errors.map((error) => el("li", {}, el("code", { text: `${error.in ? `${error.in} ` : ""}${error.pointer || "/"}` }), ` ${error.detail}`))));
    } else if (call.problem && call.status >= 400) {
      path.append(el("div", { class: "note", text: call.problem }));
    }
    if (call.responseInvalid) path.append(el("div", { class: "badge bad", text: "the mock's answer broke the contract (--validate-responses)" }));
    const steered = steeredText(call.fault);
    return el(
      "tr",
      { "data-id": call.id, class: `${call.responseInvalid ? "invalid-answer" : ""}${selected === call.id ? " selected" : ""}`, hidden: !matches(call) },
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

  const show = (call) => {
    const known = calls.get(call.id);
    calls.set(call.id, call);
    const fresh = row(call);
    const body = $("calls");
    const old = known && body.querySelector(`tr[data-id="${call.id}"]`);
    if (old) old.replaceWith(fresh);
    else {
      // Newest first: in place by id, since the listing and the live events can interleave.
      let before = body.firstElementChild;
      while (before && Number(before.dataset.id) > call.id) before = before.nextElementSibling;
      body.insertBefore(fresh, before);
      while (body.children.length > MAX_ROWS) {
        calls.delete(Number(body.lastElementChild.dataset.id));
        body.lastElementChild.remove();
      }
    }
    countCalls();
    if (selected === call.id && call.status !== null) open(call.id, true);
  };

  const countCalls = () => {
    $("journal-empty").hidden = calls.size > 0;
    $("journal-count").textContent = calls.size ? `(${calls.size})` : "";
  };

  const refilter = () => {
    for (const tr of $("calls").children) tr.hidden = !matches(calls.get(Number(tr.dataset.id)));
  };
  $("filter").addEventListener("input", refilter);
  // The journal emptied (DELETE /__admin/requests): every console is told, this one too, by `event: cleared`.
  $("journal-clear").addEventListener("click", () => admin("/__admin/requests", { method: "DELETE" }));
  $("only-errors").addEventListener("change", refilter);

  // ---- one request opened --------------------------------------------------------------------------------
  const showDetailHint = () => {
    selected = null;
    $("detail-body").replaceChildren(el("p", { class: "note", text: "Open a request (its path) to see what was sent and what the mock answered." }));
  };

  const headerList = (headers) =>
    el("dl", { class: "headers" }, ...Object.entries(headers).flatMap(([name, value]) => [el("dt", { text: name }), el("dd", { text: value })]));

  const bodyBlock = (label, part) => {
    if (!part || part.body === null) return el("p", { class: "note", text: `${label}: none` });
    const cut = part.bodyTruncated ? ` (the first part of ${part.bodySize} bytes: the journal keeps 16 KiB)` : "";
    return el("div", {}, el("h4", { text: `${label}${cut}` }), el("pre", { class: "body", tabindex: "0", "aria-label": label, text: part.body }));
  };

  const open = async (id, quiet) => {
    selected = id;
    for (const tr of $("calls").children) tr.classList.toggle("selected", Number(tr.dataset.id) === id);
    const found = await admin(`/__admin/journal/${id}`);
    if (selected !== id) return;
    if (!found.ok) {
      $("detail-body").replaceChildren(el("p", { class: "error", text: problemText(found.body) }));
      return;
    }
    const call = found.body;
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
    $("detail-body").replaceChildren(
      ...[el("h3", {}, `${call.method} ${call.url} `, el("span", { class: `status ${statusClass(call.status)}`, text: status })),
      el("p", { class: "note", text: `${call.operationId || "no operation of the contract"} · ${call.durationMs === null ? "pending" : `${call.durationMs} ms`} · ${call.uid === null ? "no account" : `uid ${call.uid}`}${steeredText(call.fault) ? ` · ${steeredText(call.fault)}` : ""}` }),
      call.responseInvalid ? el("p", { class: "badge bad", text: "The mock's answer broke the contract, so it answered 500 in its place (--validate-responses): a bug of the mock." }) : null,
      call.errors && call.errors.length ? el("div", {}, el("h4", { text: "Offending fields" }), el("ul", { class: "fields" }, ...call.errors.map((error) => el("li", {}, el("code", { text: `${error.in || ""} ${error.pointer || "/"}` }), ` ${error.detail}`)))) : null,
      el("div", { class: "pair" },
        el("div", {}, el("h4", { text: "Request headers" }), headerList(call.request.headers), bodyBlock("Request body", call.request)),
        el("div", {}, el("h4", { text: "Answer headers" }), call.answer ? headerList(call.answer.headers) : el("p", { class: "note", text: "No answer." }), bodyBlock("Answer body", call.answer)),
      ),
      el("div", { class: "curl" }, el("label", { for: "curl", text: "Copy as curl (credentials as $API_KEY and $TOKEN)" }), curl, el("button", { type: "button", onclick: copy, text: "Copy as curl" }), copied),
      ].filter(Boolean),
    );
    if (!quiet) $("detail-title").scrollIntoView({ block: "nearest" });
  };

  // ---- states, reset, latency ----------------------------------------------------------------------------
  const showStates = (list) => {
    $("state-current").textContent = list.current;
    const select = $("state-select");
    select.replaceChildren(...list.states.map((state) => el("option", { value: state.name, title: state.description, text: state.name })));
    if (list.states.some((state) => state.name === list.current)) select.value = list.current;
  };
  const loadStates = async () => {
    const list = await admin("/__admin/state");
    if (list.ok) showStates(list.body);
  };

  $("state-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("state-select").value;
    const done = await admin("/__admin/state", { method: "POST", body: { state: name } });
    say("steering-message", done.ok ? `Switched to the state ${done.body.state}: ${done.body.counts.properties} properties, ${done.body.counts.agents} agents, ${done.body.counts.documents} documents.` : problemText(done.body), !done.ok);
    loadStates();
  });

  $("reset").addEventListener("click", async () => {
    const done = await admin("/__admin/reset", { method: "POST" });
    say("steering-message", done.ok ? `Reset: ${done.body.counts.properties} properties, ${done.body.counts.agents} agents; no fault rule; the journal emptied.` : problemText(done.body), !done.ok);
    loadStates();
    loadFaults();
    loadLatency();
  });

  const showLatency = (latency) => {
    $("latency-current").textContent = latency ? (latency.min === latency.max ? `${latency.min} ms` : `${latency.min}–${latency.max} ms`) : "none";
  };
  const loadLatency = async () => {
    const got = await admin("/__admin/latency");
    if (got.ok) showLatency(got.body.latency);
  };
  $("latency-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { min: Number($("latency-min").value) };
    if ($("latency-max").value !== "") body.max = Number($("latency-max").value);
    const done = await admin("/__admin/latency", { method: "PUT", body });
    if (done.ok) showLatency(done.body.latency);
    say("steering-message", done.ok ? "Latency set: every API answer waits that long." : problemText(done.body), !done.ok);
  });
  $("latency-clear").addEventListener("click", async () => {
    const done = await admin("/__admin/latency", { method: "DELETE" });
    if (done.ok) showLatency(null);
    say("steering-message", done.ok ? "No latency." : problemText(done.body), !done.ok);
  });

  // ---- fault rules ---------------------------------------------------------------------------------------
  const ruleText = (rule) => {
    const operation = operations.find((op) => op.method === rule.method && op.path === rule.path);
    const target = `${rule.method || "any method"} ${rule.path}${operation ? ` (${operation.operationId})` : ""}`;
    const effect = [rule.drop ? "drop the connection" : rule.status !== undefined ? `answer ${rule.status}` : "", rule.delay ? `after ${rule.delay} ms` : ""].filter(Boolean).join(" ");
    return `#${rule.id} ${target}: ${effect}${rule.times !== undefined ? `, ${rule.times} more time${rule.times === 1 ? "" : "s"}` : ", until removed"}`;
  };
  const loadFaults = async () => {
    const got = await admin("/__admin/faults");
    if (!got.ok) return;
    const rules = got.body.faults;
    $("faults-empty").hidden = rules.length > 0;
    $("fault-list").replaceChildren(
      ...rules.map((rule) =>
        el("li", { "data-rule": rule.id }, el("span", { text: ruleText(rule) }), " ",
          el("button", { type: "button", "aria-label": `Remove rule ${rule.id}`, text: "Remove", onclick: () => removeRule(rule.id) })),
      ),
    );
  };
  const removeRule = async (id) => {
    const done = await admin(`/__admin/faults/${id}`, { method: "DELETE" });
    say("fault-message", done.ok ? `Rule ${id} removed.` : problemText(done.body), !done.ok);
    loadFaults();
  };

  /** The statuses a rule can answer for an operation: its documented errors, and the server errors any service can give. */
  const statusesOf = (operation) => {
    const documented = operation ? operation.responses.filter((response) => response.documented && Number(response.status) >= 400).map((response) => Number(response.status)) : [];
    return [...new Set([...documented, 500, 502, 503, 504])].sort((a, b) => a - b);
  };
  const fillStatuses = () => {
    const operation = operations[Number($("fault-operation").value)];
    const select = $("fault-status");
    select.replaceChildren(...statusesOf(operation).map((status) => el("option", { value: status, text: String(status) })));
    select.value = "503";
  };
  const fillOperations = () => {
    const select = $("fault-operation");
    const keep = select.value;
    select.replaceChildren(...operations.map((operation, index) => el("option", { value: index, text: `${operation.method} ${operation.path} (${operation.operationId})` })));
    if (keep) select.value = keep;
    fillStatuses();
  };
  $("fault-operation").addEventListener("change", fillStatuses);
  $("fault-effect").addEventListener("change", () => {
    $("fault-status").disabled = $("fault-effect").value !== "status";
  });
  $("fault-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const operation = operations[Number($("fault-operation").value)];
    if (!operation) return;
    const rule = { method: operation.method, path: operation.path };
    const effect = $("fault-effect").value;
    if (effect === "status") rule.status = Number($("fault-status").value);
    if (effect === "drop") rule.drop = true;
    if ($("fault-delay").value !== "") rule.delay = Number($("fault-delay").value);
    if ($("fault-times").value !== "") rule.times = Number($("fault-times").value);
    const done = await admin("/__admin/faults", { method: "POST", body: rule });
    say("fault-message", done.ok ? `Rule ${done.body.id} added.` : problemText(done.body), !done.ok);
    loadFaults();
  });

  // ---- coverage ------------------------------------------------------------------------------------------
  const loadCoverage = async () => {
    const got = await admin("/__admin/coverage");
    if (!got.ok) return;
    const report = got.body;
    const first = operations.length === 0;
    operations = report.operations;
    if (first) fillOperations();
    const { totals } = report;
    $("coverage-summary").textContent = `Operations exercised: ${totals.exercised} of ${totals.operations} · documented responses: ${totals.responsesExercised} of ${totals.responses}`;
    $("coverage-rows").replaceChildren(
      ...report.operations.map((operation) =>
        el("tr", { class: operation.count ? "hit" : "miss", "data-operation": operation.operationId },
          el("td", {}, el("div", { text: operation.operationId }), el("code", { class: "note", text: `${operation.method} ${operation.path}` })),
          el("td", {}, ...operation.responses.map((response) =>
            el("span", {
              class: `chip ${response.count ? "hit" : ""} ${response.documented ? "" : "undocumented"}`,
              title: `${response.documented ? "documented" : "not documented"}${response.assumptions.length ? `; rests on ${response.assumptions.join(", ")}` : ""}`,
              text: response.count ? `${response.status} ×${response.count}` : response.status,
            }))),
        ),
      ),
    );
    $("assumptions").replaceChildren(
      ...(report.assumptions.length
        ? report.assumptions.map((assumption) => el("li", {}, el("strong", { text: assumption.id }), ` ${assumption.place} (×${assumption.count}): `, el("span", { class: "note", text: assumption.text })))
        : [el("li", { class: "note", text: "None yet." })]),
    );
  };
  $("coverage-clear").addEventListener("click", async () => {
    await admin("/__admin/coverage", { method: "DELETE" });
    loadCoverage();
  });

  start();
})();
