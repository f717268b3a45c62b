import { useEffect, useState } from "react";
import { getProperty, type Answer, type Property } from "../api";

/** One listing, read from the service: its title, address, price and rooms, or the problem the service answered. */
export function PropertyCard({ nid }: { nid: number }) {
  const [answer, setAnswer] = useState<Answer<Property> | undefined>();
  useEffect(() => {
    let current = true;
    void getProperty(nid).then((got) => current && setAnswer(got));
    return () => {
      current = false;
    };
  }, [nid]);

  if (!answer) return <article aria-busy="true">Loading listing {nid}…</article>;
  if (!answer.ok) {
    return (
      <article role="alert">
        <h2>{answer.problem.title}</h2>
        {answer.problem.detail && <p>{answer.problem.detail}</p>}
      </article>
    );
  }
  const property = answer.data;
  return (
    <article aria-label="Listing">
      <h2>{property.title ?? property.street}</h2>
      <p>
        {property.street}, {property.city}, {property.state}
      </p>
      <p>
        <strong>{property.display_price}</strong> · {property.bedrooms} bd · {property.baths} ba ·{" "}
        {property.listing_status}
      </p>
    </article>
  );
}
