// The product editor ('new' creates). Until the editor (branch desk-catalogue) is merged, this
// page shows the photos panel alone.
import { createFileRoute } from '@tanstack/react-router';
import { DeskPage } from '../../../components/operator/DeskLayout';
import { ProductPhotos } from '../../../components/operator/ProductPhotos';
import { privatePageHead } from '../../../session';

export const Route = createFileRoute('/operator/products/$productId')({
  head: privatePageHead('Product · Desk'),
  component: ProductPage,
});

function ProductPage() {
  const { productId } = Route.useParams();
  return (
    <DeskPage title="Product">
      {/^\d+$/.test(productId) && <ProductPhotos productId={Number(productId)} />}
    </DeskPage>
  );
}
