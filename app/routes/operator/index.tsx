// The owner's morning view (desk.dashboard).
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../components/operator/DeskLayout';
import { privatePageHead } from '../../session';

export const Route = createFileRoute('/operator/')({
  head: privatePageHead('Today · Desk'),
  component: () => <DeskPage title="Today">{null}</DeskPage>,
});
