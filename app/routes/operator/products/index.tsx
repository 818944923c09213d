// The catalogue: every product, drafts and archived ones included.
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../../components/operator/DeskLayout';
import { privatePageHead } from '../../../session';

export const Route = createFileRoute('/operator/products/')({
  head: privatePageHead('Products · Desk'),
  component: () => <DeskPage title="Products">{null}</DeskPage>,
});
