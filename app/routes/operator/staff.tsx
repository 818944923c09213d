// Staff: the owner adds and removes them.
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../components/operator/DeskLayout';
import { privatePageHead } from '../../session';

export const Route = createFileRoute('/operator/staff')({
  head: privatePageHead('Staff · Desk'),
  component: () => <DeskPage title="Staff">{null}</DeskPage>,
});
