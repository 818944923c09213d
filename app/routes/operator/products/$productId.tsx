// The product editor ('new' creates).
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../../components/operator/DeskLayout';
import { privatePageHead } from '../../../session';

export const Route = createFileRoute('/operator/products/$productId')({
  head: privatePageHead('Product · Desk'),
  component: () => <DeskPage title="Product">{null}</DeskPage>,
});
