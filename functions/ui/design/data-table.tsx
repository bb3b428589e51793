/**
 * The console's data table (browser only): TanStack Table's headless core
 * does the sorting and column visibility; this renders it in the design
 * system's markup. Sortable column headers (buttons with `aria-sort` on the
 * header), a column chooser, a sticky header inside a labelled scroll region
 * (the only place a page scrolls sideways), the page's count and the server's
 * cursor paging, and loading, empty and error states.
 *
 * Sorting orders the rows loaded (one page of the server's); the server's
 * own order (newest first, by id) decides which rows a page holds.
 */
import { TableRegion } from './page';
import {
  type ColumnDef,
  type ColumnVisibilityState,
  type RowData,
  columnVisibilityFeature,
  constructTable,
  createSortedRowModel,
  functionalUpdate,
  rowSortingFeature,
  type SortingState,
  sortFn_alphanumeric,
  tableFeatures,
} from '@tanstack/table-core';
import { storeReactivityBindings } from '@tanstack/table-core/store-reactivity-bindings';
import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';

const features = tableFeatures({
  coreReactivityFeature: storeReactivityBindings(),
  rowSortingFeature,
  columnVisibilityFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric },
});

type Sortable = string | number | boolean | null | undefined;

export interface Column<T> {
  id: string;
  header: string;
  /** What the column sorts on, and shows when there is no `cell`. Without it the column does not sort. */
  value?: (row: T) => Sortable;
  cell?: (row: T) => ComponentChildren;
  /** Right-aligned, tabular figures. */
  numeric?: boolean;
  /** The row's header cell (`<th scope="row">`): the first column, usually. */
  rowHeader?: boolean;
  /** Hidden until the reader asks for it in the column chooser. */
  hidden?: boolean;
  /** Always shown: not in the column chooser. */
  required?: boolean;
}

export interface Paging {
  /** Rows on this page. */
  count: number;
  /** What a row is: "player" → "50 players on this page". */
  noun: string;
  /** The server's cursor to the next page, if any. */
  next?: string | null;
  atFirst: boolean;
  onNext: (cursor: string) => void;
  onFirst: () => void;
}

const plural = (count: number, noun: string) => `${count.toLocaleString('en-GB')} ${noun}${count === 1 ? '' : 's'}`;

export function DataTable<T extends RowData>({
  label,
  rows,
  columns,
  rowId,
  loading = false,
  error,
  empty,
  paging,
  footer,
  toolbar,
  sortedBy,
}: {
  /** Names the table and its scroll region for assistive technology. */
  label: string;
  rows: readonly T[] | undefined;
  columns: readonly Column<T>[];
  rowId: (row: T) => string;
  loading?: boolean;
  /** Shown instead of the rows (the page's own ErrorNote, say). */
  error?: ComponentChildren;
  /** What an empty table says. */
  empty: ComponentChildren;
  paging?: Paging;
  /** A totals row: one cell per visible column, by column id. */
  footer?: Partial<Record<string, ComponentChildren>>;
  toolbar?: ComponentChildren;
  /** The order the rows come in, until the reader sorts them: a column id, descending when `desc`. */
  sortedBy?: { id: string; desc: boolean };
}) {
  const [sorting, setSorting] = useState<SortingState>(sortedBy ? [sortedBy] : []);
  const [chosen, setVisibility] = useState<ColumnVisibilityState>({});
  // A column that arrives with later rows (a player's attribute, say) starts hidden too, if it says so.
  const visibility = useMemo(() => ({ ...Object.fromEntries(columns.filter((c) => c.hidden).map((c) => [c.id, false])), ...chosen }), [columns, chosen]);
  const data = useMemo(() => [...(rows ?? [])], [rows]);
  const defs = useMemo(
    () =>
      columns.map(
        (column) =>
          ({
            id: column.id,
            header: column.header,
            accessorFn: (row: T) => column.value?.(row) ?? null,
            enableSorting: column.value !== undefined,
            enableHiding: !column.required,
            sortFn: column.numeric ? undefined : 'alphanumeric',
            sortUndefined: 'last',
          }) as unknown as ColumnDef<typeof features, T>,
      ),
    [columns],
  );
  const table = constructTable({
    features,
    columns: defs,
    data,
    getRowId: (row: T) => rowId(row),
    state: { sorting, columnVisibility: visibility },
    onSortingChange: (updater) => setSorting((previous) => functionalUpdate(updater, previous)),
    onColumnVisibilityChange: (updater) => setVisibility((previous) => functionalUpdate(updater, previous)),
    enableSortingRemoval: true,
  });
  const byId = new Map(columns.map((column) => [column.id, column]));
  const visible = table.getVisibleLeafColumns().map((column) => byId.get(column.id)!);
  const chooser = columns.filter((column) => !column.required);

  let body: ComponentChildren;
  if (error) body = <div class="table-state">{error}</div>;
  else if (loading && !rows)
    body = (
      <p class="table-state" aria-busy="true">
        Loading…
      </p>
    );
  else if (data.length === 0) body = <div class="table-state">{empty}</div>;
  else
    body = (
      <table>
        <thead>
          <tr>
            {table.getHeaderGroups()[0]!.headers.map((header) => {
              const column = byId.get(header.column.id)!;
              const sorted = header.column.getIsSorted();
              const ariaSort = sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined;
              return (
                <th key={header.id} scope="col" class={column.numeric ? 'num' : undefined} aria-sort={ariaSort}>
                  {header.column.getCanSort() ? (
                    <button type="button" class="sort" onClick={header.column.getToggleSortingHandler()}>
                      {column.header}
                      <span class="sort-mark" aria-hidden="true">
                        {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                      </span>
                    </button>
                  ) : (
                    column.header
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {visible.map((column) => {
                const content = column.cell ? column.cell(row.original) : String(column.value?.(row.original) ?? '');
                const className = column.numeric ? 'num' : undefined;
                return column.rowHeader ? (
                  <th key={column.id} scope="row" class={className}>
                    {content}
                  </th>
                ) : (
                  <td key={column.id} class={className}>
                    {content}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
        {footer && (
          <tfoot>
            <tr>
              {visible.map((column) => (
                <td key={column.id} class={column.numeric ? 'num' : undefined}>
                  {footer[column.id]}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    );

  return (
    <div class="data-table">
      <div class="table-toolbar">
        <div class="cluster">{toolbar}</div>
        {chooser.length > 1 && (
          <details class="menu">
            <summary>Columns</summary>
            <fieldset class="menu-panel">
              <legend class="visually-hidden">Columns shown in {label}</legend>
              {chooser.map((column) => (
                <label key={column.id}>
                  <input
                    type="checkbox"
                    checked={visibility[column.id] !== false}
                    onChange={(event) => setVisibility((previous) => ({ ...previous, [column.id]: event.currentTarget.checked }))}
                  />
                  {column.header}
                </label>
              ))}
            </fieldset>
          </details>
        )}
      </div>
      <TableRegion label={`${label} (scrolls)`} class="scroll-y" busy={loading}>
        {body}
      </TableRegion>
      {paging && (paging.count > 0 || !paging.atFirst) && (
        <nav class="table-footer" aria-label={`${label} pages`}>
          <span>
            {plural(paging.count, paging.noun)} on this page{paging.next ? ', more on the next' : ''}
          </span>
          <span class="cluster">
            {!paging.atFirst && (
              <button type="button" class="small" onClick={paging.onFirst}>
                First page
              </button>
            )}
            {paging.next && (
              <button type="button" class="small" onClick={() => paging.onNext(paging.next!)}>
                Next
              </button>
            )}
          </span>
        </nav>
      )}
    </div>
  );
}
