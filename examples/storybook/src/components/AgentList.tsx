import { useCallback, useEffect, useState } from "react";
import { addAgent, listAgents, type Problem } from "../api";

/**
 * The account's agents, how many of its seats they take, and a button that adds one. The service refuses an agent
 * past the seats (`Not Enough Agent Seats`): the list then says so and offers nothing more.
 */
export function AgentList({ seats = 10 }: { seats?: number }) {
  const [agents, setAgents] = useState<Array<{ nid: string; email: string }> | undefined>();
  const [problem, setProblem] = useState<Problem | undefined>();
  const [adding, setAdding] = useState(false);

  const load = useCallback(async () => {
    const answer = await listAgents();
    if (answer.ok) setAgents(Object.values(answer.data));
    else setProblem(answer.problem);
  }, []);
  useEffect(() => void load(), [load]);

  const add = async () => {
    setAdding(true);
    const n = (agents?.length ?? 0) + 1;
    const answer = await addAgent({
      agent_first_name: "New",
      agent_last_name: `Agent ${n}`,
      email: `new.agent.${n}@storybook.example`,
    });
    setAdding(false);
    if (answer.ok) {
      setProblem(undefined);
      await load();
    } else setProblem(answer.problem);
  };

  if (!agents && !problem) return <section aria-busy="true">Loading agents…</section>;
  const full = agents !== undefined && agents.length >= seats;
  return (
    <section aria-label="Agents">
      <h2>Agents</h2>
      <p>
        {agents?.length ?? 0} of {seats} seats taken
      </p>
      {agents && agents.length === 0 && <p>No agents yet.</p>}
      <ul>
        {agents?.map((agent) => (
          <li key={agent.nid}>{agent.email}</li>
        ))}
      </ul>
      {problem && (
        <p role="alert">
          <strong>{problem.title}</strong> {problem.detail}
        </p>
      )}
      <button type="button" onClick={() => void add()} disabled={adding}>
        {full ? "Add agent (no seat left)" : "Add agent"}
      </button>
    </section>
  );
}
