export function Footer() {
  return (
    <footer className="mt-24 border-t border-line bg-paper-2">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6">
        <p className="font-display text-3xl">duuka</p>
        <p className="mt-2 max-w-md text-sm text-ink-soft">
          Premium fashion from Kampala. Priced in UGX, delivered across Uganda.
        </p>
        <p className="mt-8 text-xs text-ink-soft">
          © {new Date().getFullYear()} duuka. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
