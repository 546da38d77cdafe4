/** Content negotiation between the pages and the API on the paths that serve both. */
import type { FastifyRequest } from 'fastify';

/** HTML only when Accept ranks text/html strictly above application/json (q-values, wildcards). */
export function prefersHtml(req: FastifyRequest): boolean {
  const accept = req.headers.accept;
  if (!accept) return false;
  const ranges = accept.split(',').map((part) => {
    const [range, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return { range: range.trim(), q: q ? Number(q.slice(2)) || 0 : 1 };
  });
  const quality = (type: string) => {
    const [major] = type.split('/');
    const exact = ranges.find((r) => r.range === type) ?? ranges.find((r) => r.range === `${major}/*`);
    return (exact ?? ranges.find((r) => r.range === '*/*'))?.q ?? 0;
  };
  return quality('text/html') > quality('application/json');
}
