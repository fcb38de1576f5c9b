package io.kraft.broker.protocol.codec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * UTF-8 without intermediate byte arrays: the encoded length is computed from the chars and the
 * bytes are written straight into the output buffer, so sizing then writing a message allocates
 * nothing per string. Unpaired surrogates become '?', as {@link String#getBytes} does.
 */
public final class Utf8 {
    private Utf8() {
    }

    /** Number of bytes the UTF-8 encoding of {@code s} takes. */
    public static int encodedLength(String s) {
        int n = s.length();
        int bytes = n;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                continue;
            }
            if (c < 0x800) {
                bytes += 1;
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 2; // 4 bytes for the pair's 2 chars
                i++;
            } else if (Character.isSurrogate(c)) {
                continue; // replaced by a single '?'
            } else {
                bytes += 2;
            }
        }
        return bytes;
    }

    /** Writes the UTF-8 encoding of {@code s} at the buffer's position. */
    public static void write(String s, ByteBuffer buf) {
        int n = s.length();
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                buf.put((byte) c);
            } else if (c < 0x800) {
                buf.put((byte) (0xC0 | (c >> 6)));
                buf.put((byte) (0x80 | (c & 0x3F)));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                buf.put((byte) (0xF0 | (cp >> 18)));
                buf.put((byte) (0x80 | ((cp >> 12) & 0x3F)));
                buf.put((byte) (0x80 | ((cp >> 6) & 0x3F)));
                buf.put((byte) (0x80 | (cp & 0x3F)));
            } else if (Character.isSurrogate(c)) {
                buf.put((byte) '?');
            } else {
                buf.put((byte) (0xE0 | (c >> 12)));
                buf.put((byte) (0x80 | ((c >> 6) & 0x3F)));
                buf.put((byte) (0x80 | (c & 0x3F)));
            }
        }
    }

    /** Decodes {@code length} bytes at the buffer's position and advances past them. */
    public static String read(ByteBuffer buf, int length) {
        String s;
        if (buf.hasArray()) {
            s = new String(buf.array(), buf.arrayOffset() + buf.position(), length, StandardCharsets.UTF_8);
        } else {
            byte[] copy = new byte[length];
            buf.get(buf.position(), copy);
            s = new String(copy, StandardCharsets.UTF_8);
        }
        buf.position(buf.position() + length);
        return s;
    }
}
