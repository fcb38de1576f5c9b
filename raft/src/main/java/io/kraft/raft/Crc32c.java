package io.kraft.raft;

import java.util.zip.CRC32C;

/** CRC32C of byte ranges as the signed int the wire and file formats carry. */
public final class Crc32c {

    private Crc32c() {
    }

    public static int of(byte[] data) {
        return of(data, 0, data.length);
    }

    public static int of(byte[] data, int offset, int length) {
        CRC32C crc = new CRC32C();
        crc.update(data, offset, length);
        return (int) crc.getValue();
    }
}
