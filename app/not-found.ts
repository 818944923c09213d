import { notFound } from '@tanstack/react-router';
import { TRPCClientError } from '@trpc/client';

/** A loader's tRPC NOT_FOUND becomes the router's not-found (HTTP 404, the route's 404 view). */
export async function orNotFound<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof TRPCClientError && error.data?.code === 'NOT_FOUND') throw notFound();
    throw error;
  }
}
