// The desk's record: every write, who, what, when.
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../components/operator/DeskLayout';
import { privatePageHead } from '../../session';

export const Route = createFileRoute('/operator/record')({
  head: privatePageHead('Record · Desk'),
  component: () => <DeskPage title="Record">{null}</DeskPage>,
});
