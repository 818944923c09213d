import { Link } from '@tanstack/react-router';

export function NotFound() {
  return (
    <section className="mx-auto max-w-xl px-6 py-24 text-center">
      <p className="eyebrow">404</p>
      <h1 className="mt-3 font-display text-5xl">This page has left the rail</h1>
      <p className="mt-4 text-ink-soft">
        The page you were looking for does not exist or has moved. The collection is still here.
      </p>
      <Link to="/" className="btn btn-primary mt-8">
        Back to home
      </Link>
    </section>
  );
}
