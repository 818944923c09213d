// Staff (/desk/staff, owner only: desk.staff, desk.addStaff, desk.removeStaff): who works at
// the desk, adding someone who has signed up, and taking the desk away (their next request is
// refused). The shop's configured owners (OPERATOR_EMAILS) are shown, and changed only there.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useRef, useState } from 'react';
import * as v from 'valibot';
import { Field, inputClass, Loading, Notice } from '#app/components/account/ui.tsx';
import { DeskPage, DeskPageProblem } from '#app/components/desk/DeskLayout.tsx';
import { SaveButton } from '#app/components/desk/SaveButton.tsx';
import { errorMessage } from '#app/error-message.ts';
import { privatePageHead } from '#app/session.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { addStaffInput } from '#core/desk-shop.ts';

export const Route = createFileRoute('/desk/staff')({
  head: privatePageHead('Staff · Desk'),
  component: Staff,
});

function Staff() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const staff = useQuery(trpc.desk.staff.queryOptions());
  const me = useQuery(trpc.desk.role.queryOptions());
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'staff' | 'owner'>('staff');
  const [problem, setProblem] = useState<string | null>(null);
  // Kept for a retry of the same addition; renewed after each success.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());
  // One key per person removed, kept until the removal is answered (a retry never removes twice).
  const removeKeys = useRef(new Map<string, string>());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.desk.staff.queryKey() });
  const add = useMutation(
    trpc.desk.addStaff.mutationOptions({
      onSuccess: async (answer) => {
        setEmail('');
        setProblem(null);
        setRequestKey(crypto.randomUUID());
        toast.success(`${answer.email} added as ${answer.role}`);
        await refresh();
      },
      onError: (error) => setProblem(errorMessage(error, 'They could not be added. Try again.')),
    }),
  );
  const remove = useMutation(
    trpc.desk.removeStaff.mutationOptions({
      onSuccess: async (answer) => {
        removeKeys.current.delete(answer.email);
        toast.success(`${answer.email} no longer works at the desk`);
        await refresh();
      },
      onError: (error) => toast.error(errorMessage(error, 'They could not be removed. Try again.')),
    }),
  );

  if (staff.isPending) return <Loading text="Loading the staff..." />;
  if (staff.isError) {
    return (
      <DeskPageProblem title="Staff">
        {errorMessage(staff.error, 'The staff could not be loaded.')}
      </DeskPageProblem>
    );
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const input = { email, role, requestKey };
    const checked = v.safeParse(addStaffInput, input);
    if (!checked.success) return setProblem(checked.issues[0].message);
    setProblem(null);
    add.mutate(input);
  }

  return (
    <DeskPage title="Staff">
      <div className="mt-8 grid gap-12 lg:grid-cols-[1.3fr_1fr]">
        <section aria-labelledby="people-heading">
          <h2 id="people-heading" className="font-display text-2xl">
            At the desk
          </h2>
          <ul className="mt-4 divide-y divide-line border-y border-line">
            {staff.data.map((member) => {
              const self = member.email.toLowerCase() === me.data?.email.toLowerCase();
              return (
                <li key={member.email} className="flex flex-wrap items-center gap-3 py-3">
                  <div className="min-w-0 flex-1">
                    <p className="truncate font-medium">{member.name || member.email}</p>
                    {member.name && (
                      <p className="truncate text-sm text-ink-soft">{member.email}</p>
                    )}
                    <p className="mt-1 text-xs uppercase tracking-[0.14em] text-ink-soft">
                      {member.role === 'owner' ? 'Owner' : 'Staff'}
                      {member.fromConfiguration ? ' · from configuration' : ''}
                      {self ? ' · you' : ''}
                    </p>
                  </div>
                  {!member.fromConfiguration && !self && (
                    <button
                      type="button"
                      className="btn btn-outline min-h-11"
                      aria-label={`Remove ${member.email}`}
                      disabled={remove.isPending}
                      onClick={() => {
                        const keys = removeKeys.current;
                        const requestKey = keys.get(member.email) ?? crypto.randomUUID();
                        keys.set(member.email, requestKey);
                        remove.mutate({ email: member.email, requestKey });
                      }}
                    >
                      Remove
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </section>

        <section aria-labelledby="add-heading">
          <h2 id="add-heading" className="font-display text-2xl">
            Add someone
          </h2>
          <p className="mt-1 text-sm text-ink-soft">
            They sign up on the shop first, with the email you enter here.
          </p>
          <form onSubmit={submit} noValidate className="mt-5 space-y-5">
            {problem && <Notice tone="error">{problem}</Notice>}
            <Field
              label="Email"
              name="email"
              type="email"
              autoComplete="off"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <div>
              <label
                htmlFor="staff-role"
                className="text-xs font-semibold uppercase tracking-[0.16em]"
              >
                Role
              </label>
              <select
                id="staff-role"
                className={`${inputClass} min-h-12`}
                value={role}
                onChange={(event) => setRole(event.target.value as 'staff' | 'owner')}
              >
                <option value="staff">Staff: orders, catalogue, stock</option>
                <option value="owner">Owner: also staff and money</option>
              </select>
            </div>
            <SaveButton pending={add.isPending} busy="Adding…" className="w-full sm:w-auto">
              Add staff
            </SaveButton>
          </form>
        </section>
      </div>
    </DeskPage>
  );
}
