/** The error boundary: the spec's text, never a stack trace. */
export function ErrorScreen() {
  return (
    <section className="mx-auto max-w-xl px-6 py-24 text-center" role="alert">
      <p className="eyebrow">duuka</p>
      <h1 className="mt-3 font-display text-4xl">Something went wrong. Please try again later.</h1>
      <a href="/" className="btn btn-outline mt-8">
        Back to home
      </a>
    </section>
  );
}
