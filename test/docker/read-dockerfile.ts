/**
 * Reads the few Dockerfile instructions the tests check (FROM, CMD, HEALTHCHECK, COPY, RUN, ENV, EXPOSE, USER),
 * following https://docs.docker.com/reference/dockerfile/: `\` continues a line, `#` at the start of a line is
 * a comment, CMD and HEALTHCHECK CMD are in the exec (JSON array) form, each FROM starts a stage (multi-stage
 * builds: https://docs.docker.com/build/building/multi-stage/). Anything this reader does not understand is an
 * error, so a change to the Dockerfile's form cannot make a test pass by parsing less.
 */

/** One instruction, its keyword upper-cased, its arguments as written on (joined) lines. */
export interface DockerInstruction {
  keyword: string;
  args: string;
  line: number;
}

export function readDockerfile(text: string): DockerInstruction[] {
  const instructions: DockerInstruction[] = [];
  let pending: { text: string; line: number } | undefined;
  for (const [index, raw] of text.split("\n").entries()) {
    const trimmed = raw.trim();
    if (trimmed.startsWith("#") || (trimmed === "" && pending === undefined)) continue;
    const continues = trimmed.endsWith("\\");
    const part = continues ? trimmed.slice(0, -1).trim() : trimmed;
    pending = pending ? { ...pending, text: `${pending.text} ${part}` } : { text: part, line: index + 1 };
    if (continues) continue;
    const match = /^([A-Za-z]+)\s+(.*)$/.exec(pending.text);
    if (!match) throw new Error(`Dockerfile line ${pending.line}: cannot read "${pending.text}"`);
    instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!, line: pending.line });
    pending = undefined;
  }
  return instructions;
}

/** The only instruction with this keyword; an error if there is none or more than one. */
export function only(instructions: DockerInstruction[], keyword: string): DockerInstruction {
  const found = instructions.filter((instruction) => instruction.keyword === keyword);
  if (found.length !== 1) throw new Error(`The Dockerfile has ${found.length} ${keyword} instructions; expected one`);
  return found[0]!;
}

/** The exec form `["node", "..."]`, which runs without a shell, so that signals reach the program itself. */
export function execForm(args: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    throw new Error(`Not the exec (JSON array) form: ${args}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || !parsed.every((item) => typeof item === "string")) {
    throw new Error(`Not a non-empty JSON array of strings: ${args}`);
  }
  return parsed;
}

/** `--name=value` options at the start of the arguments, and the rest. */
export function splitFlags(args: string): { flags: Record<string, string>; rest: string } {
  const flags: Record<string, string> = {};
  let rest = args.trim();
  for (let match; (match = /^--([a-z-]+)=(\S+)\s*/.exec(rest)); rest = rest.slice(match[0].length))
    flags[match[1]!] = match[2]!;
  return { flags, rest };
}

/** HEALTHCHECK [--options] CMD ["exec", "form"] */
export function readHealthcheck(args: string): { flags: Record<string, string>; command: string[] } {
  const { flags, rest } = splitFlags(args);
  const match = /^CMD\s+(.*)$/.exec(rest);
  if (!match) throw new Error(`HEALTHCHECK is not "[--options] CMD [...]": ${args}`);
  return { flags, command: execForm(match[1]!) };
}

/** One COPY: from the build context, or with `from` from an earlier stage's file system (its paths absolute). */
export interface DockerCopy {
  /** The name (`AS name`) or index of the stage copied from; undefined for the build context. */
  from?: string;
  sources: string[];
  destination: string;
}

/**
 * COPY [--from=<stage>] <src>... <dest>, in the whitespace-separated form (no JSON form, no spaces in paths). Other
 * options (--chown, --link, …) are refused, as the replay would not honour them.
 */
export function readCopy(args: string): DockerCopy {
  const { flags, rest } = splitFlags(args);
  if (rest.startsWith("[")) throw new Error(`COPY in the JSON form is not read here: ${args}`);
  const words = rest.split(/\s+/);
  if (words.length < 2) throw new Error(`COPY needs a source and a destination: ${args}`);
  const unknown = Object.keys(flags).filter((flag) => flag !== "from");
  if (unknown.length > 0) throw new Error(`COPY --${unknown.join(", --")} is not replayed here: ${args}`);
  return {
    ...(flags.from === undefined ? {} : { from: flags.from }),
    sources: words.slice(0, -1),
    destination: words.at(-1)!,
  };
}

/** A build stage: its base image, its name (`AS name`) if it has one, and its instructions after the FROM. */
export interface DockerStage {
  index: number;
  image: string;
  name?: string;
  instructions: DockerInstruction[];
}

/**
 * The stages of a Dockerfile, in order: each FROM starts one. A COPY --from must name an earlier stage (by name
 * or index), as Docker requires when the source is a stage and not an image; one naming an image is refused here.
 */
export function readStages(instructions: DockerInstruction[]): DockerStage[] {
  const stages: DockerStage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === "FROM") {
      const match = /^(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+([a-z][a-z0-9_.-]*))?$/i.exec(instruction.args.trim());
      if (!match) throw new Error(`Dockerfile line ${instruction.line}: cannot read FROM ${instruction.args}`);
      const name = match[2]?.toLowerCase();
      if (name !== undefined && stages.some((stage) => stage.name === name))
        throw new Error(`Dockerfile line ${instruction.line}: a second stage named ${name}`);
      stages.push({
        index: stages.length,
        image: match[1]!,
        ...(name === undefined ? {} : { name }),
        instructions: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile line ${instruction.line}: ${instruction.keyword} before the first FROM`);
    if (instruction.keyword === "COPY") {
      const { from } = readCopy(instruction.args);
      if (
        from !== undefined &&
        !stages.slice(0, -1).some((earlier) => earlier.name === from.toLowerCase() || String(earlier.index) === from)
      ) {
        throw new Error(`Dockerfile line ${instruction.line}: COPY --from=${from} names no earlier stage`);
      }
    }
    stage.instructions.push(instruction);
  }
  if (stages.length === 0) throw new Error("The Dockerfile has no FROM");
  return stages;
}

/** The earlier stage a COPY --from names. */
export function stageNamed(stages: DockerStage[], from: string): DockerStage {
  const stage = stages.find((candidate) => candidate.name === from.toLowerCase() || String(candidate.index) === from);
  if (!stage) throw new Error(`No stage ${from}`);
  return stage;
}

/** ENV name=value ... (unquoted values). */
export function readEnv(args: string): Record<string, string> {
  const pairs = args
    .trim()
    .split(/\s+/)
    .map((word) => /^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$/.exec(word));
  if (pairs.some((pair) => pair === null)) throw new Error(`ENV is not in the name=value form: ${args}`);
  return Object.fromEntries(pairs.map((pair) => [pair![1]!, pair![2]!]));
}
