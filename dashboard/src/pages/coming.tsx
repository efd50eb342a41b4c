import { useTitle } from '../ui.tsx';

/** Pages of the next part of the dashboard (issue #16 builds the front door and the keys). */
export function ComingPage(props: { title: string }) {
  useTitle(props.title);
  return (
    <section aria-labelledby="page-title">
      <h1 id="page-title">{props.title}</h1>
      <p>Coming in the next release of the dashboard. Until then, the API has it all: see the API reference at <a href="/docs">/docs</a>.</p>
    </section>
  );
}
