/** RFC 9110 token characters: what a media type's type and subtype may be made of. */
const MEDIA_TYPE = /^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/i;

/**
 * Why a data: URL's media type cannot be kept, or undefined. The node answers downloads with the
 * media type as Content-Type, so one holding control characters (or anything outside a token) would
 * make every later download fail; it is refused at publish instead. The URL parser drops tabs and
 * newlines, so the raw text is read.
 */
export function dataUrlMediaTypeProblem(uri: string): string | undefined {
  if (!/^data:/i.test(uri)) return undefined;
  const comma = uri.indexOf(',');
  if (comma < 0) return undefined;
  const type = uri.slice('data:'.length, comma).split(';')[0]!.trim();
  if (type === '' || MEDIA_TYPE.test(type)) return undefined;
  const control = /[\u0000-\u001f\u007f]/.test(type);
  return `uRIId is a data: URL whose media type ${control ? 'holds control characters' : 'is not of the form type/subtype'}; it could not be served back`;
}
