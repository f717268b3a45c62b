/**
 * How long a test waits for something that takes well under a second on an idle machine (a server to answer, a
 * line to appear, a process to end) before it calls it hung. It is a guard against a hang, never a measure of
 * speed: the suite runs three files side by side on two cores, and a CI machine may be busy with other work, so a
 * step can take many times longer than it does on a developer's idle laptop and still be right.
 */
export const HANG_MS = 120_000;
