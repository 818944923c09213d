// The shop's name in texts (and EgoSMS's default sender, at most 11 characters) and as the stop
// link's first segment: a module of its own, so a page that needs the name loads nothing else.
export const SHOP_NAME = 'duuka';
