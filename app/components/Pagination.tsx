import { Link, type LinkProps } from '@tanstack/react-router';

/** Previous / page N of M / Next, as links so every page has its own URL. With `more` (the
 * listing's count stopped at its cap) M is the pages known so far: "Page 1 of 42+". */
export function Pagination({
  page,
  pageCount,
  more = false,
  linkTo,
}: {
  page: number;
  pageCount: number;
  more?: boolean;
  linkTo: (page: number) => LinkProps;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-12 flex items-center justify-center gap-4 text-sm">
      {page > 1 ? (
        <Link {...linkTo(page - 1)} className="btn btn-outline" rel="prev">
          Previous
        </Link>
      ) : (
        <span className="btn btn-outline invisible" aria-hidden>
          Previous
        </span>
      )}
      <span aria-current="page">
        Page {page} of {pageCount}
        {more && '+'}
      </span>
      {page < pageCount ? (
        <Link {...linkTo(page + 1)} className="btn btn-outline" rel="next">
          Next
        </Link>
      ) : (
        <span className="btn btn-outline invisible" aria-hidden>
          Next
        </span>
      )}
    </nav>
  );
}
