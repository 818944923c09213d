// The inbox's foot (issue 37): when the assistant answers WhatsApp (off, always, or outside the
// shop's hours), and this month's messages as Meta prices them (from its status webhooks).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { errorMessage } from '#app/error-message.ts';
import { toast } from '#app/toast.tsx';
import { useTRPC } from '#app/trpc-client.ts';
import { WHATSAPP_ASSISTANT_TEXT, type WhatsAppAssistantMode } from '#core/whatsapp.ts';

const MODES: { value: WhatsAppAssistantMode; label: string }[] = [
  { value: 'off', label: 'Off: staff answer' },
  { value: 'always', label: 'Always' },
  { value: 'after_hours', label: 'Outside opening hours' },
];

export function InboxAssistant() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const id = useId();
  const whatsapp = useQuery(trpc.desk.whatsapp.queryOptions());
  const save = useMutation(
    trpc.desk.setWhatsAppAssistant.mutationOptions({
      onSuccess: async () => {
        toast.success(WHATSAPP_ASSISTANT_TEXT.modeSaved);
        await queryClient.invalidateQueries({ queryKey: trpc.desk.whatsapp.queryKey() });
      },
      onError: (error) => toast.error(errorMessage(error, 'The setting could not be saved.')),
    }),
  );
  if (!whatsapp.data) return null;
  const month = whatsapp.data.usage.filter((row) => row.month === whatsapp.data?.usage[0]?.month);
  const billable = month.reduce((sum, row) => sum + row.billable, 0);
  const free = month.reduce((sum, row) => sum + row.free, 0);
  return (
    <div className="mt-6 border-t border-line pt-5 text-sm" data-testid="inbox-assistant">
      <label htmlFor={id} className="text-xs font-semibold uppercase tracking-[0.16em]">
        The assistant answers
      </label>
      <select
        id={id}
        className="mt-2 block min-h-12 w-full border border-line bg-paper px-3 text-base"
        value={whatsapp.data.assistant}
        disabled={save.isPending}
        onChange={(event) => save.mutate({ mode: event.target.value as WhatsAppAssistantMode })}
      >
        {MODES.map((mode) => (
          <option key={mode.value} value={mode.value}>
            {mode.label}
          </option>
        ))}
      </select>
      <p className="mt-2 text-ink-soft">
        With the catalogue for anyone; orders only for a number verified on its account.
      </p>
      <p className="mt-4 text-ink-soft" data-testid="whatsapp-usage">
        {month.length === 0
          ? 'No WhatsApp messages sent this month.'
          : billable === 0
            ? `This month: ${free} ${free === 1 ? 'message' : 'messages'}, none billed by Meta.`
            : `This month: ${billable} billed by Meta (${month
                .filter((row) => row.billable > 0)
                .map((row) => `${row.billable} ${row.category}`)
                .join(', ')}), ${free} free.`}
      </p>
    </div>
  );
}
