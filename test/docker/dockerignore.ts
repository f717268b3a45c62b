/**
 * Which paths a .dockerignore keeps out of the build context, by Docker's rules
 * (https://docs.docker.com/build/concepts/context/#dockerignore-files, implemented in moby/patternmatcher):
 * a pattern excludes a path when it matches the path or one of its parent folders, `!` lets a path back in,
 * and the last pattern that matches decides. `*` and `?` stop at `/`; `**` spans any number of folders.
 */
export type IsExcluded = (path: string) => boolean;

interface Rule {
  pattern: string;
  regexp: RegExp;
  exception: boolean;
}

export function readDockerignore(text: string): IsExcluded {
  const rules: Rule[] = [];
  for (const line of text.split("\n")) {
    let pattern = line.trim();
    if (pattern === "" || pattern.startsWith("#")) continue;
    const exception = pattern.startsWith("!");
    if (exception) pattern = pattern.slice(1).trim();
    pattern = clean(pattern);
    rules.push({ pattern, regexp: toRegExp(pattern), exception });
  }
  return (path) => {
    const cleaned = clean(path);
    const parents = cleaned.split("/").map((_, index, parts) => parts.slice(0, index + 1).join("/"));
    let excluded = false;
    for (const rule of rules) {
      if (parents.some((candidate) => rule.regexp.test(candidate))) excluded = !rule.exception;
    }
    return excluded;
  };
}

/** Like Go's filepath.Clean for a relative path, and without the leading `/` Docker ignores. */
function clean(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/") || ".";
}

function toRegExp(pattern: string): RegExp {
  let source = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index]!;
    if (char === "*" && pattern[index + 1] === "*") {
      index++;
      if (pattern[index + 1] === "/") index++;
      source += index === pattern.length - 1 ? ".*" : "(.*/)?";
    } else if (char === "*") source += "[^/]*";
    else if (char === "?") source += "[^/]";
    else if (char === "\\" && index + 1 < pattern.length) source += `\\${pattern[++index]}`;
    else if (char === "[" || char === "]") source += char;
    else source += char.replace(/[.+()|{}$^]/g, "\\$&");
  }
  return new RegExp(`^${source}$`);
}
