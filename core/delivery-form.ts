// The checkout's delivery form (issue 23), checked with placeOrder's own rules before anything is
// sent. Apart from core/delivery-choice.ts so only the checkout loads the checks.
import * as v from 'valibot';
import { DELIVERY_WORDING } from './delivery-choice.ts';
import { DELIVERY_TEXT, type DeliveryOption, deliveryOrderFields } from './delivery-rules.ts';

/** The form's delivery fields as typed. */
export type DeliveryForm = { area: string; landmark: string; phone: string; notes: string };
export type DeliveryField = keyof DeliveryForm;

/** What checkout.placeOrder is sent about delivery: the option and the address, never a fee. */
export type DeliveryOrder = {
  deliveryOptionId: string;
  deliveryArea?: string;
  deliveryLandmark?: string;
  deliveryPhone?: string;
  deliveryNotes?: string;
};

const FIELD_OF: Record<string, DeliveryField> = {
  deliveryArea: 'area',
  deliveryLandmark: 'landmark',
  deliveryPhone: 'phone',
  deliveryNotes: 'notes',
};

/**
 * The delivery part of the order, checked with placeOrder's own rules (deliveryOrderFields) and the
 * area a rider needs (the town, upcountry): the fields to send, or each field's problem, named as
 * the form names the field. A pickup sends no address; a blank phone is left out (the profile's is
 * used).
 */
export function deliveryOrder(
  option: Pick<DeliveryOption, 'id' | 'kind'>,
  form: DeliveryForm,
):
  | { ok: true; order: DeliveryOrder }
  | { ok: false; problems: Partial<Record<DeliveryField, string>> } {
  const pickup = option.kind === 'pickup';
  const order: DeliveryOrder = {
    deliveryOptionId: option.id,
    ...(pickup ? {} : { deliveryArea: form.area.trim(), deliveryLandmark: form.landmark.trim() }),
    ...(form.phone.trim() ? { deliveryPhone: form.phone.trim() } : {}),
    ...(form.notes.trim() ? { deliveryNotes: form.notes.trim() } : {}),
  };
  const problems: Partial<Record<DeliveryField, string>> = {};
  const wording = DELIVERY_WORDING[option.kind];
  // placeOrder's texts name the Kampala form's fields; upcountry's say "Town", "Bus company or stage".
  const named: Record<string, string> = {
    [DELIVERY_TEXT.areaTooLong]: wording.areaTooLong,
    [DELIVERY_TEXT.landmarkTooLong]: wording.landmarkTooLong,
    [DELIVERY_TEXT.phoneInvalid]: wording.phoneInvalid,
  };
  const checked = v.safeParse(v.object(deliveryOrderFields), order);
  if (!checked.success) {
    for (const issue of checked.issues) {
      const key = issue.path?.[0]?.key;
      const field = typeof key === 'string' ? FIELD_OF[key] : undefined;
      if (field && !problems[field]) problems[field] = named[issue.message] ?? issue.message;
    }
  }
  if (!pickup && !order.deliveryArea && !problems.area) problems.area = wording.areaRequired;
  if (Object.keys(problems).length > 0) return { ok: false, problems };
  return { ok: true, order };
}
