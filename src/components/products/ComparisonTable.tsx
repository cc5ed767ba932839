import { useId, useState } from 'react';

export type Verdict = 'yes' | 'partial' | 'no';

export interface ComparisonRow {
  feature: string;
  /** Explanation shown in the row's tooltip. */
  tooltip: string;
  product: { verdict: Verdict; text: string };
  others: { verdict: Verdict; text: string };
}

export interface ComparisonTableProps {
  productName: string;
  othersName: string;
  rows: ComparisonRow[];
}

const VERDICT_LABEL: Record<Verdict, string> = { yes: 'Sí', partial: 'Parcial', no: 'No' };

function VerdictIcon({ verdict }: { verdict: Verdict }) {
  if (verdict === 'yes') {
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 shrink-0 text-accent-600">
        <circle cx="12" cy="12" r="11" fill="currentColor" opacity=".15" />
        <path
          d="M7 12.5l3.2 3.2L17 9"
          fill="none"
          stroke="currentColor"
          strokeWidth="2.4"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    );
  }
  if (verdict === 'partial') {
    return (
      <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 shrink-0 text-sun-600">
        <circle cx="12" cy="12" r="11" fill="currentColor" opacity=".15" />
        <path d="M8 12h8" fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" />
      </svg>
    );
  }
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="size-6 shrink-0 text-red-600">
      <circle cx="12" cy="12" r="11" fill="currentColor" opacity=".12" />
      <path
        d="M8.5 8.5l7 7m0-7l-7 7"
        fill="none"
        stroke="currentColor"
        strokeWidth="2.4"
        strokeLinecap="round"
      />
    </svg>
  );
}

function Cell({ verdict, text }: { verdict: Verdict; text: string }) {
  return (
    <td className="border-t border-line px-2 py-4 align-top sm:px-5" data-verdict={verdict}>
      <span className="flex flex-col items-center gap-1.5 text-center text-[0.8125rem] leading-snug text-ink sm:flex-row sm:text-left sm:text-sm">
        <VerdictIcon verdict={verdict} />
        <span>
          <span className="sr-only">{VERDICT_LABEL[verdict]}: </span>
          {text}
        </span>
      </span>
    </td>
  );
}

/**
 * Product-versus-others table. Each feature is a button described by its tooltip: the tooltip shows on
 * hover (also over the tooltip itself), on keyboard focus and on tap (a tap focuses the button), all in
 * CSS, so the table works before and without hydration. Once hydrated (`client:interaction`), Escape
 * hides the open tooltip without moving focus (WCAG 1.4.13). Three narrow columns and tooltips
 * anchored to the left column keep everything inside a 390 px phone screen, with no scrolling.
 */
export default function ComparisonTable({ productName, othersName, rows }: ComparisonTableProps) {
  const id = useId();
  const [dismissed, setDismissed] = useState<number | null>(null);

  return (
    <div className="rounded-card bg-white shadow-sm ring-1 ring-line">
      <table className="w-full table-fixed border-separate border-spacing-0" data-comparison="">
        <caption className="sr-only">
          Comparación de {productName} con {othersName.toLowerCase()}
        </caption>
        <colgroup>
          <col className="w-[40%] sm:w-[44%]" />
          <col className="w-[30%] sm:w-[28%]" />
          <col className="w-[30%] sm:w-[28%]" />
        </colgroup>
        <thead>
          <tr>
            <th
              scope="col"
              className="rounded-tl-card px-3 py-4 text-left text-xs font-semibold tracking-wide text-muted uppercase sm:px-5"
            >
              Característica
            </th>
            <th
              scope="col"
              className="bg-brand-900 px-2 py-4 text-center text-sm font-bold text-white sm:px-5 sm:text-left sm:text-base"
            >
              {productName}
            </th>
            <th
              scope="col"
              className="rounded-tr-card px-2 py-4 text-center text-sm font-semibold text-muted sm:px-5 sm:text-left sm:text-base"
            >
              {othersName}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => {
            const tipId = `${id}-tip-${index}`;
            return (
              <tr key={row.feature} data-row={row.feature}>
                <th scope="row" className="border-t border-line px-3 py-4 text-left align-top sm:px-5">
                  <span
                    className="group/tip relative inline-block"
                    onMouseLeave={() => setDismissed(null)}
                    onBlur={() => setDismissed(null)}
                  >
                    <button
                      type="button"
                      aria-describedby={tipId}
                      onKeyDown={(event) => {
                        if (event.key === 'Escape') setDismissed(index);
                      }}
                      className="inline-flex cursor-help items-start gap-1.5 rounded text-left text-sm leading-snug font-semibold text-brand-900 decoration-brand-500/40 decoration-dotted underline-offset-4 hover:underline sm:text-base"
                    >
                      <span>{row.feature}</span>
                      <svg
                        aria-hidden="true"
                        viewBox="0 0 20 20"
                        className="mt-0.5 size-4 shrink-0 text-brand-500"
                      >
                        <circle cx="10" cy="10" r="8.5" fill="none" stroke="currentColor" strokeWidth="1.6" />
                        <path
                          d="M10 9v5M10 6.2v.1"
                          stroke="currentColor"
                          strokeWidth="1.8"
                          strokeLinecap="round"
                        />
                      </svg>
                    </button>
                    <span
                      role="tooltip"
                      id={tipId}
                      className={`invisible absolute top-full left-0 z-30 mt-2 w-64 max-w-[calc(100vw-3rem)] rounded-button bg-brand-950 px-4 py-3 text-left text-sm leading-relaxed font-normal text-white opacity-0 shadow-xl transition-opacity duration-150 group-focus-within/tip:visible group-focus-within/tip:opacity-100 group-hover/tip:visible group-hover/tip:opacity-100 pointer-coarse:pointer-events-none motion-reduce:transition-none sm:w-80 ${dismissed === index ? 'invisible! opacity-0!' : ''}`}
                    >
                      <span
                        aria-hidden="true"
                        className="absolute -top-1.5 left-5 size-3 rotate-45 bg-brand-950"
                      />
                      {row.tooltip}
                    </span>
                  </span>
                </th>
                <Cell {...row.product} />
                <Cell {...row.others} />
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
