import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ApiReference, ReferenceSkeleton, ReferenceUnavailable } from './ApiReference';
import { OpenApiUnavailable, buildReference, fetchOpenApi } from './openapi';

/** Every endpoint of this server, read from its OpenAPI document. */
export function OpenApiReference() {
  const doc = useQuery({
    queryKey: ['openapi'],
    queryFn: ({ signal }) => fetchOpenApi(signal),
    staleTime: 5 * 60_000,
    retry: (count, error) => !(error instanceof OpenApiUnavailable) && count < 1,
  });
  const reference = useMemo(() => (doc.data ? buildReference(doc.data) : null), [doc.data]);
  if (doc.isPending) return <ReferenceSkeleton />;
  if (!reference || reference.count === 0) return <ReferenceUnavailable />;
  return <ApiReference reference={reference} />;
}
