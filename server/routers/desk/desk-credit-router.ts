// The desk's gift cards and store credit (issue 35): desk.credit (every gift card and credit
// account with each entry) and desk.grantCredit, for owner and staff (a customer gets FORBIDDEN).
import type { TRPCRouterRecord } from '@trpc/server';
import { CREDIT_TEXT, grantCreditInput } from '#core/value-ledger.ts';
import { deskValueAccounts, type GrantProblem, grantCredit } from '../../services/value-service.ts';
import { accepted, type Refusals } from '../../shopper-error.ts';
import { deskProcedure } from '../../trpc.ts';

const grantRefusals: Refusals<GrantProblem> = {
  'unknown-email': ['NOT_FOUND', CREDIT_TEXT.unknownEmail],
};

export const creditDesk = {
  credit: deskProcedure.query(({ ctx }) => deskValueAccounts(ctx.db)),

  /** Recorded in the same statement as the credit it grants. */
  grantCredit: deskProcedure.input(grantCreditInput).mutation(async ({ ctx, input }) => {
    const granted = accepted(await grantCredit(ctx.db, ctx.user, input), grantRefusals);
    return { balance: granted.balance };
  }),
} satisfies TRPCRouterRecord;
