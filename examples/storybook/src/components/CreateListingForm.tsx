import { useState, type FormEvent } from "react";
import { createListing, type NewListing, type Problem } from "../api";

const FIELDS = ["street", "city", "state", "zip"] as const;

/**
 * A new listing's address. The form checks nothing itself: what the service refuses comes back as a 400 listing
 * every offending field (its JSON pointer), and the form shows each beside the field it names.
 */
export function CreateListingForm() {
  const [values, setValues] = useState<Record<(typeof FIELDS)[number], string>>({
    street: "",
    city: "",
    state: "",
    zip: "",
  });
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<Problem | undefined>();
  const [created, setCreated] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    setProblem(undefined);
    setCreated(undefined);
    // Empty fields are left out, so that the service, not the form, says which are required.
    const listing: NewListing = Object.fromEntries(Object.entries(values).filter(([, value]) => value !== ""));
    const answer = await createListing(listing);
    setSaving(false);
    if (answer.ok) setCreated(answer.data.nid);
    else setProblem(answer.problem);
  };

  const refusal = (field: string) => problem?.errors?.find((error) => error.pointer === `/${field}`);
  return (
    <form aria-label="New listing" onSubmit={(event) => void submit(event)}>
      {FIELDS.map((field) => (
        <label key={field} style={{ display: "block" }}>
          {field}{" "}
          <input
            name={field}
            value={values[field]}
            aria-invalid={refusal(field) ? true : undefined}
            onChange={(event) => setValues({ ...values, [field]: event.target.value })}
          />
          {refusal(field) && <small role="note"> {refusal(field)!.detail}</small>}
        </label>
      ))}
      <button type="submit" disabled={saving}>
        {saving ? "Saving…" : "Create listing"}
      </button>
      {problem && (
        <div role="alert">
          <strong>{problem.title}</strong>
          {problem.errors && (
            <ul aria-label="Refused fields">
              {problem.errors.map((error) => (
                <li key={`${error.in}${error.pointer}`}>
                  {error.pointer || "(body)"}: {error.detail}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {created && <p role="status">Listing {created} created</p>}
    </form>
  );
}
