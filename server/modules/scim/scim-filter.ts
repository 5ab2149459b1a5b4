import { filter as predicateOf, parse, type Filter } from 'scim2-parse-filter';
import { ScimError } from './scim-errors.js';

const MAX_FILTER_LENGTH = 2000;

/** A parsed `filter`: the predicate over a resource, and the `eq` comparisons SQL can narrow by first. */
export interface ScimFilter {
  matches(resource: object): boolean;
  /** Top-level `eq` comparisons (alone or joined by `and`), by lowercased attribute path. */
  equalities: Map<string, unknown>;
}

/**
 * Reads a SCIM filter (RFC 7644 §3.4.2.2) with scim2-parse-filter. Comparisons of strings ignore case
 * (as the attributes this server keeps are caseExact false), except on the paths in `caseExact`
 * (lowercased: `id`, `externalid`…), compared as given; the resource is folded the same way by `fold`.
 */
export function readScimFilter(text: string | undefined, caseExact: ReadonlySet<string>, fold: (resource: any) => object): ScimFilter | null {
  if (text === undefined || text.trim() === '') return null;
  if (text.length > MAX_FILTER_LENGTH) throw new ScimError(400, `filter must be at most ${MAX_FILTER_LENGTH} characters`, 'invalidFilter');
  let parsed: Filter;
  try {
    parsed = parse(text);
  } catch {
    throw new ScimError(400, 'The filter is not a valid SCIM filter expression', 'invalidFilter');
  }
  const folded = foldFilter(parsed, '', caseExact);
  const test = predicateOf(folded);
  const equalities = new Map<string, unknown>();
  for (const part of folded.op === 'and' ? (folded as { filters: Filter[] }).filters : [folded]) {
    if (part.op === 'eq' && 'compValue' in part) equalities.set(part.attrPath.toLowerCase(), part.compValue);
  }
  return { matches: (resource) => test(fold(resource)), equalities };
}

function foldFilter(node: Filter, prefix: string, caseExact: ReadonlySet<string>): Filter {
  switch (node.op) {
    case 'and':
    case 'or':
      return { ...node, filters: (node as { filters: Filter[] }).filters.map((inner) => foldFilter(inner, prefix, caseExact)) } as Filter;
    case 'not':
      return { ...node, filter: foldFilter((node as { filter: Filter }).filter, prefix, caseExact) } as Filter;
    case '[]': {
      const path = (node as { attrPath: string }).attrPath;
      return { ...node, valFilter: foldFilter((node as { valFilter: Filter }).valFilter, `${prefix}${path.toLowerCase()}.`, caseExact) } as Filter;
    }
    case 'pr':
      return node;
    default: {
      const compare = node as Extract<Filter, { compValue: unknown }>;
      const path = `${prefix}${compare.attrPath.toLowerCase()}`;
      if (typeof compare.compValue !== 'string' || caseExact.has(path)) return compare;
      return { ...compare, compValue: compare.compValue.toLowerCase() };
    }
  }
}

/** startIndex (1-based) and count of a list, as RFC 7644 §3.4.2.4 reads them: bad values fall back, count capped. */
export function pageOf(query: { startIndex?: unknown; count?: unknown }, max: number): { startIndex: number; count: number } {
  const integer = (value: unknown) => (typeof value === 'string' && /^-?\d{1,9}$/.test(value) ? Number(value) : undefined);
  const startIndex = Math.max(1, integer(query.startIndex) ?? 1);
  const count = Math.min(max, Math.max(0, integer(query.count) ?? max));
  return { startIndex, count };
}
