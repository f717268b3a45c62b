// The mock's console: plain DOM, no library, no build step. Everything it reads comes from the mock's admin
// routes, behind the admin guard; with an admin token, nothing is read until it is given. What it shows is built
// by console-views.js, loaded before this file.
"use strict";
(() => {
  const { $, el, problemText, say, row, detail, ruleText, statusesOf, coverageRows, assumptionItems } = consoleViews;
  const MAX_ROWS = 500;
  let token = null;
  let operations = [];
  let selected = null;
  let following = null;
  const calls = new Map();

  class Locked extends Error {}

  /** A call to an admin route: JSON in and out, the token as a bearer; a 401 asks for the token again. */
  const admin = async (path, options = {}) => {
    const headers = { accept: "application/json" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.body !== undefined) headers["content-type"] = "application/json";
    const answer = await fetch(path, {
      method: options.method || "GET",
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      cache: "no-store",
    });
    if (answer.status === 401) {
      lock(token ? "That token was refused." : "");
      throw new Locked();
    }
    const body = await answer.json().catch(() => null);
    return { ok: answer.ok, status: answer.status, body };
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
        if (call.fault?.rule) soon("faults", loadFaults);
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
  const matches = (call) => {
    if ($("only-errors").checked && !(call.status === null || call.status >= 400)) return false;
    const wanted = $("filter").value.trim().toLowerCase();
    if (!wanted) return true;
    return `${call.method} ${call.url} ${call.operationId || ""} ${call.status ?? ""}`.toLowerCase().includes(wanted);
  };

  const show = (call) => {
    const known = calls.get(call.id);
    calls.set(call.id, call);
    const fresh = row(call, { open, selected: selected === call.id, hidden: !matches(call) });
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
    $("detail-body").replaceChildren(
      el("p", { class: "note", text: "Open a request (its path) to see what was sent and what the mock answered." }),
    );
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
    $("detail-body").replaceChildren(...detail(found.body));
    if (!quiet) $("detail-title").scrollIntoView({ block: "nearest" });
  };

  // ---- states, reset, latency ----------------------------------------------------------------------------
  const showStates = (list) => {
    $("state-current").textContent = list.current;
    const select = $("state-select");
    select.replaceChildren(
      ...list.states.map((state) => el("option", { value: state.name, title: state.description, text: state.name })),
    );
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
    say(
      "steering-message",
      done.ok
        ? `Switched to the state ${done.body.state}: ${done.body.counts.properties} properties, ` +
            `${done.body.counts.agents} agents, ${done.body.counts.documents} documents.`
        : problemText(done.body),
      !done.ok,
    );
    loadStates();
  });

  $("reset").addEventListener("click", async () => {
    const done = await admin("/__admin/reset", { method: "POST" });
    say(
      "steering-message",
      done.ok
        ? `Reset: ${done.body.counts.properties} properties, ${done.body.counts.agents} agents; no fault rule; ` +
            `the journal emptied.`
        : problemText(done.body),
      !done.ok,
    );
    loadStates();
    loadFaults();
    loadLatency();
  });

  const showLatency = (latency) => {
    $("latency-current").textContent = latency
      ? latency.min === latency.max
        ? `${latency.min} ms`
        : `${latency.min}–${latency.max} ms`
      : "none";
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
    say(
      "steering-message",
      done.ok ? "Latency set: every API answer waits that long." : problemText(done.body),
      !done.ok,
    );
  });
  $("latency-clear").addEventListener("click", async () => {
    const done = await admin("/__admin/latency", { method: "DELETE" });
    if (done.ok) showLatency(null);
    say("steering-message", done.ok ? "No latency." : problemText(done.body), !done.ok);
  });

  // ---- fault rules ---------------------------------------------------------------------------------------
  const loadFaults = async () => {
    const got = await admin("/__admin/faults");
    if (!got.ok) return;
    const rules = got.body.faults;
    $("faults-empty").hidden = rules.length > 0;
    $("fault-list").replaceChildren(
      ...rules.map((rule) =>
        el(
          "li",
          { "data-rule": rule.id },
          el("span", { text: ruleText(rule, operations) }),
          " ",
          el("button", {
            type: "button",
            "aria-label": `Remove rule ${rule.id}`,
            text: "Remove",
            onclick: () => removeRule(rule.id),
          }),
        ),
      ),
    );
  };
  const removeRule = async (id) => {
    const done = await admin(`/__admin/faults/${id}`, { method: "DELETE" });
    say("fault-message", done.ok ? `Rule ${id} removed.` : problemText(done.body), !done.ok);
    loadFaults();
  };

  const fillStatuses = () => {
    const operation = operations[Number($("fault-operation").value)];
    const select = $("fault-status");
    select.replaceChildren(
      ...statusesOf(operation).map((status) => el("option", { value: status, text: String(status) })),
    );
    select.value = "503";
  };
  const fillOperations = () => {
    const select = $("fault-operation");
    const keep = select.value;
    select.replaceChildren(
      ...operations.map((operation, index) =>
        el("option", { value: index, text: `${operation.method} ${operation.path} (${operation.operationId})` }),
      ),
    );
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
    $("coverage-summary").textContent =
      `Operations exercised: ${totals.exercised} of ${totals.operations} · documented responses: ` +
      `${totals.responsesExercised} of ${totals.responses}`;
    $("coverage-rows").replaceChildren(...coverageRows(report));
    $("assumptions").replaceChildren(...assumptionItems(report));
  };
  $("coverage-clear").addEventListener("click", async () => {
    await admin("/__admin/coverage", { method: "DELETE" });
    loadCoverage();
  });

  start();
})();
