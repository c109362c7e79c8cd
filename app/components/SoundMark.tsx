/** A few bars of a sound, beside or above a voice memory's name: decorative, hidden from screen readers. */
export function SoundMark({ className }: { className: string }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false" className={className}>
      <g fill="currentColor">
        <rect x="2" y="9.5" width="2.5" height="5" rx="1.25" />
        <rect x="6.5" y="6" width="2.5" height="12" rx="1.25" />
        <rect x="11" y="3" width="2.5" height="18" rx="1.25" />
        <rect x="15.5" y="7" width="2.5" height="10" rx="1.25" />
        <rect x="20" y="10" width="2.5" height="4" rx="1.25" />
      </g>
    </svg>
  );
}
