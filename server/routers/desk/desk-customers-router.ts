// The desk's customers (issue 34): desk.customers, for the shop's staff and owner (a customer
// gets FORBIDDEN).
import type { TRPCRouterRecord } from '@trpc/server';
import { customersInput } from '#core/desk-customers.ts';
import { deskCustomers } from '../../services/desk-customers-service.ts';
import { deskProcedure } from '../../trpc.ts';

export const customersDesk = {
  customers: deskProcedure
    .input(customersInput)
    .query(({ ctx, input }) =>
      deskCustomers(ctx.db, { q: input?.q, cursor: input?.cursor ?? undefined }),
    ),
} satisfies TRPCRouterRecord;
