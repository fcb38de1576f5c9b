package io.kraft.broker.group.share;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The delivery state of one topic partition for one share group (KIP-932): which records between the share-partition
 * start offset (SPSO) and end offset are available, acquired by which member until when, acknowledged or archived,
 * and how often each was delivered. A plain object driven by events (acquire, acknowledge, lock expiry, a member
 * leaving); its owner serialises calls and does the I/O.
 *
 * <p>State is kept as ranges of offsets with one state each, split and merged as acknowledgements arrive, never as
 * one object per record. The ranges cover {@code [startOffset, endOffset)} with no hole; below the start offset every
 * record is done, from the end offset on none has been delivered yet.
 */
public final class SharePartition {
    /** The limits a share partition runs under (KIP-932's group.share.* broker settings). */
    public record Settings(int deliveryCountLimit, long lockDurationMs, int maxInFlightRecords) {
        public Settings {
            if (deliveryCountLimit < 1 || lockDurationMs < 1 || maxInFlightRecords < 1) {
                throw new IllegalArgumentException("share partition settings must be positive: " + deliveryCountLimit
                        + ", " + lockDurationMs + ", " + maxInFlightRecords);
            }
        }
    }

    /** A range of offsets handed to a consumer, with the delivery count each has with this delivery. */
    public record AcquiredRange(long firstOffset, long lastOffset, int deliveryCount) {
    }

    /** A range of offsets with one state, as a snapshot stores it (acquired ranges are stored as available). */
    public record StateRange(long firstOffset, long lastOffset, RecordState state, int deliveryCount) {
    }

    /** What a share partition persists: enough to resume after a restart or a leader change. */
    public record Snapshot(long startOffset, List<StateRange> ranges) {
        public Snapshot {
            ranges = List.copyOf(ranges);
        }
    }

    /** The outcome of an acknowledgement. */
    public enum AckResult {
        OK,
        /** Some offset is not acquired by this member (or not in flight): nothing changed. */
        INVALID_RECORD_STATE,
        /** Malformed: empty range, or a per-offset type list of the wrong length. */
        INVALID_REQUEST
    }

    private final Settings settings;
    private final TreeMap<Long, Span> spans = new TreeMap<>();
    private long startOffset;
    private long endOffset;

    /** A share partition whose first record to deliver is {@code startOffset}, nothing in flight. */
    public SharePartition(Settings settings, long startOffset) {
        this.settings = settings;
        this.startOffset = startOffset;
        this.endOffset = startOffset;
    }

    /** A share partition as a snapshot left it: every acquisition lock was lost with its holder. */
    public static SharePartition restore(Settings settings, Snapshot snapshot) {
        SharePartition p = new SharePartition(settings, snapshot.startOffset());
        long next = snapshot.startOffset();
        for (StateRange r : snapshot.ranges()) {
            if (r.lastOffset() < next) {
                continue; // already below the start offset
            }
            long first = Math.max(r.firstOffset(), next);
            if (first > next) {
                // A hole in a snapshot is records never delivered: available again.
                p.spans.put(next, new Span(next, first - 1, RecordState.AVAILABLE, 0));
            }
            RecordState state = r.state() == RecordState.ACQUIRED ? RecordState.AVAILABLE : r.state();
            p.spans.put(first, new Span(first, r.lastOffset(), state, r.deliveryCount()));
            next = r.lastOffset() + 1;
        }
        p.endOffset = next;
        p.advanceStart();
        p.mergeAll();
        return p;
    }

    public Settings settings() {
        return settings;
    }

    /** The share-partition start offset (SPSO): every record below it is done. */
    public long startOffset() {
        return startOffset;
    }

    /** One past the last offset ever acquired: records from here on have never been delivered. */
    public long endOffset() {
        return endOffset;
    }

    /** How many ranges hold the state (for tests and the in-flight bound). */
    public int rangeCount() {
        return spans.size();
    }

    /**
     * Where a fetch for this partition should start reading the log: the first available record, else the end
     * offset; -1 when the cap on in-flight records leaves nothing to acquire.
     */
    public long nextFetchOffset() {
        for (Span s : spans.values()) {
            if (s.state == RecordState.AVAILABLE) {
                return s.first;
            }
        }
        return endOffset - startOffset < settings.maxInFlightRecords() ? endOffset : -1;
    }

    /** Whether an acquisition with records up to {@code logEndOffset} (exclusive) would hand out anything. */
    public boolean canAcquire(long logEndOffset) {
        long next = nextFetchOffset();
        return next >= 0 && next < logEndOffset;
    }

    /**
     * Acquires for {@code memberId} up to {@code maxRecords} records below {@code fetchedEndOffset} (exclusive: the
     * end of what the caller read from the log), available ones first in offset order, then new ones while the cap
     * on in-flight records allows. Each acquired record's delivery count goes up by one and it is locked until
     * {@code nowMs + lockDurationMs}.
     */
    public List<AcquiredRange> acquire(String memberId, long fetchedEndOffset, int maxRecords, long nowMs) {
        List<AcquiredRange> out = new ArrayList<>();
        long budget = maxRecords;
        long deadline = nowMs + settings.lockDurationMs();
        for (Span s : new ArrayList<>(spans.values())) {
            if (budget == 0 || s.first >= fetchedEndOffset) {
                break;
            }
            if (s.state != RecordState.AVAILABLE) {
                continue;
            }
            long last = Math.min(Math.min(s.last, fetchedEndOffset - 1), s.first + budget - 1);
            Span taken = split(s.first, last);
            taken.acquireBy(memberId, deadline);
            budget -= taken.size();
            add(out, taken);
        }
        long limit = Math.min(fetchedEndOffset, startOffset + settings.maxInFlightRecords());
        if (budget > 0 && endOffset < limit) {
            long last = Math.min(limit - 1, endOffset + budget - 1);
            Span fresh = new Span(endOffset, last, RecordState.AVAILABLE, 0);
            fresh.acquireBy(memberId, deadline);
            spans.put(fresh.first, fresh);
            endOffset = last + 1;
            add(out, fresh);
        }
        mergeAll();
        return out;
    }

    /**
     * Applies a consumer's acknowledgement of {@code [firstOffset, lastOffset]}: one type for the whole range, or
     * one per offset. Every offset must be acquired by {@code memberId}; otherwise nothing changes.
     */
    public AckResult acknowledge(String memberId, long firstOffset, long lastOffset, List<AcknowledgeType> types) {
        long count = lastOffset - firstOffset + 1;
        if (count < 1 || types.isEmpty() || (types.size() != 1 && types.size() != count)) {
            return AckResult.INVALID_REQUEST;
        }
        if (firstOffset < startOffset || lastOffset >= endOffset) {
            return AckResult.INVALID_RECORD_STATE;
        }
        for (Span s : spans.subMap(spans.floorKey(firstOffset), true, lastOffset, true).values()) {
            if (s.state != RecordState.ACQUIRED || !s.memberId.equals(memberId)) {
                return AckResult.INVALID_RECORD_STATE;
            }
        }
        if (types.size() == 1) {
            finish(firstOffset, lastOffset, types.get(0));
        } else {
            int i = 0;
            while (i < types.size()) {
                int j = i;
                while (j + 1 < types.size() && types.get(j + 1) == types.get(i)) {
                    j++;
                }
                finish(firstOffset + i, firstOffset + j, types.get(i));
                i = j + 1;
            }
        }
        advanceStart();
        mergeAll();
        return AckResult.OK;
    }

    /** Makes every record {@code memberId} holds available again (or archived at the limit): it left or its session closed. */
    public int releaseMember(String memberId) {
        int released = 0;
        for (Span s : spans.values()) {
            if (s.state == RecordState.ACQUIRED && s.memberId.equals(memberId)) {
                released += (int) s.size();
                giveBack(s);
            }
        }
        advanceStart();
        mergeAll();
        return released;
    }

    /** Gives back every record whose acquisition lock ended at or before {@code nowMs}; returns how many. */
    public int expireLocks(long nowMs) {
        int expired = 0;
        for (Span s : spans.values()) {
            if (s.state == RecordState.ACQUIRED && s.deadlineMs <= nowMs) {
                expired += (int) s.size();
                giveBack(s);
            }
        }
        if (expired > 0) {
            advanceStart();
            mergeAll();
        }
        return expired;
    }

    /** The earliest acquisition lock deadline, or {@code Long.MAX_VALUE} when nothing is acquired. */
    public long nextLockDeadlineMs() {
        long min = Long.MAX_VALUE;
        for (Span s : spans.values()) {
            if (s.state == RecordState.ACQUIRED) {
                min = Math.min(min, s.deadlineMs);
            }
        }
        return min;
    }

    /** The log's start offset moved (retention, DeleteRecords): records below it are gone and count as done. */
    public void onLogStartOffset(long logStartOffset) {
        if (logStartOffset <= startOffset) {
            return;
        }
        while (!spans.isEmpty() && spans.firstEntry().getValue().last < logStartOffset) {
            spans.pollFirstEntry();
        }
        if (!spans.isEmpty() && spans.firstKey() < logStartOffset) {
            Span head = spans.pollFirstEntry().getValue();
            spans.put(logStartOffset, head.copy(logStartOffset, head.last));
        }
        startOffset = logStartOffset;
        endOffset = Math.max(endOffset, logStartOffset);
    }

    /** The state of one offset (for tests and describe): below the start offset ARCHIVED, past the end AVAILABLE. */
    public StateRange stateOf(long offset) {
        if (offset < startOffset) {
            return new StateRange(offset, offset, RecordState.ARCHIVED, 0);
        }
        Map.Entry<Long, Span> e = spans.floorEntry(offset);
        if (e == null || e.getValue().last < offset) {
            return new StateRange(offset, offset, RecordState.AVAILABLE, 0);
        }
        Span s = e.getValue();
        return new StateRange(offset, offset, s.state, s.deliveryCount);
    }

    /** The member holding {@code offset}, or null. */
    public String holderOf(long offset) {
        Map.Entry<Long, Span> e = spans.floorEntry(offset);
        return e == null || e.getValue().last < offset || e.getValue().state != RecordState.ACQUIRED
                ? null : e.getValue().memberId;
    }

    /** What to persist now. */
    public Snapshot snapshot() {
        List<StateRange> ranges = new ArrayList<>(spans.size());
        for (Span s : spans.values()) {
            RecordState state = s.state == RecordState.ACQUIRED ? RecordState.AVAILABLE : s.state;
            StateRange r = new StateRange(s.first, s.last, state, s.deliveryCount);
            int n = ranges.size();
            StateRange prev = n == 0 ? null : ranges.get(n - 1);
            if (prev != null && prev.state() == state && prev.deliveryCount() == s.deliveryCount) {
                ranges.set(n - 1, new StateRange(prev.firstOffset(), s.last, state, s.deliveryCount));
            } else {
                ranges.add(r);
            }
        }
        return new Snapshot(startOffset, ranges);
    }

    /** Applies one acknowledgement type to {@code [first, last]}, which may cross several spans. */
    private void finish(long first, long last, AcknowledgeType type) {
        cutAt(first);
        cutAt(last + 1);
        for (Span s : spans.subMap(first, true, last, true).values()) {
            switch (type) {
                case ACCEPT -> s.settle(RecordState.ACKNOWLEDGED);
                case REJECT, GAP -> s.settle(RecordState.ARCHIVED);
                case RELEASE -> giveBack(s);
            }
        }
    }

    /** Makes {@code offset} the first of a span, when it lies inside one. */
    private void cutAt(long offset) {
        Map.Entry<Long, Span> e = spans.floorEntry(offset);
        if (e != null && e.getKey() < offset && e.getValue().last >= offset) {
            Span s = e.getValue();
            spans.put(offset, s.copy(offset, s.last));
            s.last = offset - 1;
        }
    }

    private void giveBack(Span s) {
        s.settle(s.deliveryCount >= settings.deliveryCountLimit() ? RecordState.ARCHIVED : RecordState.AVAILABLE);
    }

    /** Splits so that {@code [first, last]}, which lies within one span, is a span of its own, and returns it. */
    private Span split(long first, long last) {
        cutAt(first);
        cutAt(last + 1);
        return spans.get(first);
    }

    private void advanceStart() {
        while (!spans.isEmpty() && spans.firstEntry().getValue().state.terminal()) {
            startOffset = spans.pollFirstEntry().getValue().last + 1;
        }
        if (spans.isEmpty()) {
            startOffset = endOffset;
        }
    }

    private void mergeAll() {
        Iterator<Span> it = spans.values().iterator();
        Span prev = null;
        while (it.hasNext()) {
            Span s = it.next();
            if (prev != null && prev.sameAs(s)) {
                prev.last = s.last;
                it.remove();
            } else {
                prev = s;
            }
        }
    }

    private static void add(List<AcquiredRange> out, Span s) {
        int n = out.size();
        AcquiredRange prev = n == 0 ? null : out.get(n - 1);
        if (prev != null && prev.lastOffset() + 1 == s.first && prev.deliveryCount() == s.deliveryCount) {
            out.set(n - 1, new AcquiredRange(prev.firstOffset(), s.last, s.deliveryCount));
        } else {
            out.add(new AcquiredRange(s.first, s.last, s.deliveryCount));
        }
    }

    /** A run of offsets sharing one state; owned by the enclosing partition. */
    private static final class Span {
        final long first;
        long last;
        RecordState state;
        int deliveryCount;
        String memberId;
        long deadlineMs;

        Span(long first, long last, RecordState state, int deliveryCount) {
            this.first = first;
            this.last = last;
            this.state = state;
            this.deliveryCount = deliveryCount;
        }

        long size() {
            return last - first + 1;
        }

        Span copy(long newFirst, long newLast) {
            Span s = new Span(newFirst, newLast, state, deliveryCount);
            s.memberId = memberId;
            s.deadlineMs = deadlineMs;
            return s;
        }

        void acquireBy(String member, long deadline) {
            state = RecordState.ACQUIRED;
            deliveryCount++;
            memberId = member;
            deadlineMs = deadline;
        }

        void settle(RecordState newState) {
            state = newState;
            memberId = null;
            deadlineMs = 0;
        }

        boolean sameAs(Span next) {
            return last + 1 == next.first && state == next.state && deliveryCount == next.deliveryCount
                    && java.util.Objects.equals(memberId, next.memberId) && deadlineMs == next.deadlineMs;
        }
    }
}
