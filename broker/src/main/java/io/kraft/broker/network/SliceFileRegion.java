package io.kraft.broker.network;

import io.kraft.storage.log.FileSlice;
import io.netty.channel.FileRegion;
import io.netty.util.AbstractReferenceCounted;
import java.io.IOException;
import java.nio.channels.WritableByteChannel;

/**
 * A Netty file region over a {@link FileSlice}. Unlike Netty's default region, releasing it leaves the
 * file channel open: the channel belongs to the log segment, which other reads keep using.
 */
final class SliceFileRegion extends AbstractReferenceCounted implements FileRegion {
    private final FileSlice slice;
    private long transferred;

    SliceFileRegion(FileSlice slice) {
        this.slice = slice;
    }

    @Override
    public long position() {
        return slice.position();
    }

    @Override
    @Deprecated
    public long transfered() {
        return transferred;
    }

    @Override
    public long transferred() {
        return transferred;
    }

    @Override
    public long count() {
        return slice.sizeBytes();
    }

    /** @param position bytes of this region already sent (Netty passes {@link #transferred()}) */
    @Override
    public long transferTo(WritableByteChannel target, long position) throws IOException {
        long moved = slice.transferTo(target, position);
        transferred += moved;
        return moved;
    }

    @Override
    public FileRegion retain() {
        super.retain();
        return this;
    }

    @Override
    public FileRegion retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public FileRegion touch() {
        return this;
    }

    @Override
    public FileRegion touch(Object hint) {
        return this;
    }

    @Override
    protected void deallocate() {
        // The segment owns the file channel; nothing to free.
    }
}
