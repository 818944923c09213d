// The shop's settings.
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../components/operator/DeskLayout';
import { privatePageHead } from '../../session';

export const Route = createFileRoute('/operator/settings')({
  head: privatePageHead('Settings · Desk'),
  component: () => <DeskPage title="Settings">{null}</DeskPage>,
});
