/**
 * SMS length (3GPP TS 23.038): a text in the GSM-7 alphabet takes 160 septets in one message, 153
 * per part when split (the rest is the concatenation header); a character of the extension table
 * (`^{}\[~]|€` and form feed) takes two septets. Any other character makes the whole text UCS-2:
 * 70 UTF-16 units in one message, 67 per part.
 */
const GSM7_BASIC = new Set(
  "@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !\"#¤%&'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà",
);
const GSM7_EXTENSION = new Set("^{}\\[~]|€\f");

export interface SmsLength {
  encoding: "GSM-7" | "UCS-2";
  /** Septets (GSM-7) or UTF-16 code units (UCS-2). */
  units: number;
  segments: number;
}

export function smsLength(text: string): SmsLength {
  let septets = 0;
  for (const c of text) {
    if (GSM7_BASIC.has(c)) septets += 1;
    else if (GSM7_EXTENSION.has(c)) septets += 2;
    else {
      const units = text.length;
      return { encoding: "UCS-2", units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
    }
  }
  return { encoding: "GSM-7", units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
}

/** At most this many parts per message: the link is never cut, the insurer's note is shortened. */
export const MAX_SMS_SEGMENTS = 3;

/**
 * `base` (which holds the link) followed by `note` shortened so the whole stays within
 * MAX_SMS_SEGMENTS; the note is dropped when almost nothing of it would fit. The ellipsis is three
 * dots (GSM-7), so shortening never switches the text to UCS-2.
 */
export function fitSms(base: string, note: string | null): string {
  if (!note) return base;
  const full = `${base}\n${note}`;
  if (smsLength(full).segments <= MAX_SMS_SEGMENTS) return full;
  const chars = [...note];
  for (let n = chars.length - 1; n >= 12; n--) {
    const text = `${base}\n${chars.slice(0, n).join("").trimEnd()}...`;
    if (smsLength(text).segments <= MAX_SMS_SEGMENTS) return text;
  }
  return base;
}
