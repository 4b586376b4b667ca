/**
 * XML text escaping that always yields well-formed XML 1.0: markup characters become entities,
 * and characters XML 1.0 cannot carry at all (NUL and most C0 controls, U+FFFE/U+FFFF, lone
 * surrogates) are written visibly as \uXXXX instead, since not even a character reference is allowed.
 */
export function escapeXml(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const char = text[i] as string;
    if (char === '&') out += '&amp;';
    else if (char === '<') out += '&lt;';
    else if (char === '>') out += '&gt;';
    else if (char === '"') out += '&quot;';
    else if (char === "'") out += '&apos;';
    else if (code === 0x09 || code === 0x0a) out += char;
    // A raw CR in an attribute or text is normalised away by parsers; keep it as a reference.
    else if (code === 0x0d) out += '&#13;';
    else if (code < 0x20 || code === 0xfffe || code === 0xffff) out += visible(code);
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += char + (text[i + 1] as string);
        i++;
      } else out += visible(code);
    } else if (code >= 0xdc00 && code <= 0xdfff) out += visible(code);
    else out += char;
  }
  return out;
}

function visible(code: number): string {
  return `\\u${code.toString(16).padStart(4, '0')}`;
}
