// Stock: the log, low stock, adjustments.
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../components/operator/DeskLayout';
import { privatePageHead } from '../../session';

export const Route = createFileRoute('/operator/stock')({
  head: privatePageHead('Stock · Desk'),
  component: () => <DeskPage title="Stock">{null}</DeskPage>,
});
