package io.kraft.systest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.OutOfOrderSequenceException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * A transactional producer committing (and every {@code abortEvery}-th time aborting) one transaction after another
 * on its own thread, handling errors as a real application does: a timed-out commit is retried, an abortable error
 * aborts, a fatal one (fenced, or anything the producer cannot recover from) closes the producer and creates a new
 * one with the same transactional.id. It records what each transaction holds and how it ended, so a reader can check
 * that the committed ones are read exactly once and the aborted ones never. Transaction {@code n} holds the values
 * {@code t<n>-<i>}, record {@code i} going to partition {@code i % partitions}.
 */
final class TransactionLoop implements AutoCloseable {
    /** How a transaction ended, as far as the producer knows. */
    enum Outcome {
        /** commitTransaction() returned. */
        COMMITTED,
        /** abortTransaction() returned, or the transaction never asked to commit and its producer was replaced. */
        ABORTED,
        /** commitTransaction() failed for good: the coordinator may or may not have decided the commit. */
        UNKNOWN
    }

    private static final int COMMIT_ATTEMPTS = 6;

    private final String bootstrap;
    private final String transactionalId;
    private final String topic;
    private final int partitions;
    private final int recordsPerTransaction;
    private final int abortEvery;
    private final int transactionTimeoutMs;
    private final Map<Integer, Outcome> outcomes = new ConcurrentHashMap<>();
    /** (nano time the commit returned, nano time the transaction began), in commit order. */
    private final List<long[]> commits = new ArrayList<>();
    private final AtomicReference<Throwable> crash = new AtomicReference<>();
    private final Thread thread;
    private volatile boolean stopping;
    private volatile int producersCreated;
    private volatile CountDownLatch pausedSignal;
    private volatile CountDownLatch resumeSignal;

    TransactionLoop(String bootstrap, String transactionalId, String topic, int partitions, int recordsPerTransaction,
                    int abortEvery, int transactionTimeoutMs) {
        this.bootstrap = bootstrap;
        this.transactionalId = transactionalId;
        this.topic = topic;
        this.partitions = partitions;
        this.recordsPerTransaction = recordsPerTransaction;
        this.abortEvery = abortEvery;
        this.transactionTimeoutMs = transactionTimeoutMs;
        this.thread = new Thread(this::run, "transaction-loop-" + transactionalId);
    }

    void start() {
        thread.start();
    }

    /** The value of record {@code index} of transaction {@code transaction}. */
    static String value(int transaction, int index) {
        return "t" + transaction + "-" + index;
    }

    /** The transaction number a value belongs to. */
    static int transactionOf(String value) {
        return Integer.parseInt(value.substring(1, value.indexOf('-')));
    }

    int recordsPerTransaction() {
        return recordsPerTransaction;
    }

    Map<Integer, Outcome> outcomes() {
        return Map.copyOf(outcomes);
    }

    long count(Outcome outcome) {
        return outcomes.values().stream().filter(outcome::equals).count();
    }

    int producersCreated() {
        return producersCreated;
    }

    /** The nano time of the first commit that returned after {@code sinceNanos}, or -1 if none yet. */
    synchronized long firstCommitAfter(long sinceNanos) {
        for (long[] commit : commits) {
            if (commit[0] - sinceNanos > 0) {
                return commit[0];
            }
        }
        return -1;
    }

    /** The nano time the first transaction begun after {@code sinceNanos} committed, or -1 if none yet. */
    synchronized long firstCommitBegunAfter(long sinceNanos) {
        for (long[] commit : commits) {
            if (commit[1] - sinceNanos > 0) {
                return commit[0];
            }
        }
        return -1;
    }

    /** Waits until {@code more} transactions committed after the call. */
    void awaitCommits(int more, long timeoutMs) throws InterruptedException {
        long target = count(Outcome.COMMITTED) + more;
        long deadlineNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (count(Outcome.COMMITTED) < target) {
            checkAlive();
            if (System.nanoTime() - deadlineNanos > 0) {
                throw new AssertionError("only " + count(Outcome.COMMITTED) + " of " + target
                        + " transactions committed within " + timeoutMs + " ms; outcomes " + summary());
            }
            Thread.sleep(20);
        }
    }

    /**
     * Makes the loop stop in its next transaction after every record was sent and acknowledged, before it ends the
     * transaction, and waits for it to get there: the caller then acts mid-transaction and calls {@link #resume}.
     */
    void pauseMidTransaction(long timeoutMs) throws InterruptedException {
        CountDownLatch paused = new CountDownLatch(1);
        resumeSignal = new CountDownLatch(1);
        pausedSignal = paused;
        if (!paused.await(timeoutMs, TimeUnit.MILLISECONDS)) {
            checkAlive();
            throw new AssertionError("the loop did not reach the middle of a transaction within " + timeoutMs
                    + " ms; outcomes " + summary());
        }
    }

    void resume() {
        resumeSignal.countDown();
    }

    String summary() {
        return count(Outcome.COMMITTED) + " committed, " + count(Outcome.ABORTED) + " aborted, "
                + count(Outcome.UNKNOWN) + " unknown, " + producersCreated + " producers";
    }

    /** Finishes the transaction under way and stops. */
    @Override
    public void close() throws InterruptedException {
        stopping = true;
        CountDownLatch resume = resumeSignal;
        if (resume != null) {
            resume.countDown();
        }
        thread.join(TimeUnit.MINUTES.toMillis(2));
        if (thread.isAlive()) {
            throw new AssertionError("the transaction loop did not stop; outcomes " + summary());
        }
        checkAlive();
    }

    private void checkAlive() {
        Throwable failure = crash.get();
        if (failure != null) {
            throw new AssertionError("the transaction loop failed", failure);
        }
    }

    private void run() {
        KafkaProducer<String, String> producer = null;
        try {
            for (int transaction = 0; !stopping; transaction++) {
                if (producer == null) {
                    producer = newProducer();
                }
                boolean commitAsked = false;
                long begunAtNanos = System.nanoTime();
                try {
                    producer.beginTransaction();
                    for (int i = 0; i < recordsPerTransaction; i++) {
                        producer.send(new ProducerRecord<>(topic, i % partitions, null, value(transaction, i)));
                    }
                    producer.flush();
                    maybePause();
                    if (transaction % abortEvery == abortEvery - 1) {
                        producer.abortTransaction();
                        outcomes.put(transaction, Outcome.ABORTED);
                    } else {
                        commitAsked = true;
                        commit(producer);
                        synchronized (this) {
                            commits.add(new long[] {System.nanoTime(), begunAtNanos});
                        }
                        outcomes.put(transaction, Outcome.COMMITTED);
                    }
                } catch (ProducerFencedException | OutOfOrderSequenceException | AuthorizationException e) {
                    outcomes.put(transaction, commitAsked ? Outcome.UNKNOWN : Outcome.ABORTED);
                    producer = replace(producer, e);
                } catch (KafkaException e) {
                    outcomes.put(transaction, commitAsked ? Outcome.UNKNOWN : Outcome.ABORTED);
                    try {
                        producer.abortTransaction();
                    } catch (KafkaException fatal) {
                        // not abortable after all (the producer is in a fatal state): start over with a new one
                        producer = replace(producer, fatal);
                    }
                }
            }
        } catch (Throwable t) {
            crash.set(t);
        } finally {
            if (producer != null) {
                producer.close();
            }
        }
    }

    /**
     * commitTransaction(), retried after a timeout as the client allows (the same commit, not a new one), for up to
     * {@link #COMMIT_ATTEMPTS} times max.block.ms.
     */
    private static void commit(KafkaProducer<String, String> producer) {
        for (int attempt = 1; ; attempt++) {
            try {
                producer.commitTransaction();
                return;
            } catch (TimeoutException e) {
                // the coordinator did not answer in time (it may be failing over): ask again
                if (attempt == COMMIT_ATTEMPTS) {
                    throw e;
                }
            }
        }
    }

    private void maybePause() throws InterruptedException {
        CountDownLatch paused = pausedSignal;
        if (paused != null && paused.getCount() > 0) {
            paused.countDown();
            resumeSignal.await();
        }
    }

    private KafkaProducer<String, String> replace(KafkaProducer<String, String> producer, Exception cause) {
        System.out.println("[transaction-loop] new producer for " + transactionalId + " after " + cause);
        producer.close(java.time.Duration.ZERO);
        return null;
    }

    private KafkaProducer<String, String> newProducer() {
        KafkaProducer<String, String> producer = new KafkaProducer<>(Map.ofEntries(
                Map.entry(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
                Map.entry(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId),
                Map.entry(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, transactionTimeoutMs),
                Map.entry(ProducerConfig.LINGER_MS_CONFIG, 2),
                Map.entry(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000),
                Map.entry(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000),
                Map.entry(ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000),
                Map.entry(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 50),
                Map.entry(ProducerConfig.RECONNECT_BACKOFF_MS_CONFIG, 50),
                Map.entry(ProducerConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, 200),
                Map.entry(ProducerConfig.METADATA_MAX_AGE_CONFIG, 2_000)), new StringSerializer(), new StringSerializer());
        producersCreated++;
        while (true) {
            try {
                producer.initTransactions();
                return producer;
            } catch (TimeoutException e) {
                // no coordinator answered yet (a failover): initTransactions may be called again
                if (stopping) {
                    producer.close(java.time.Duration.ZERO);
                    throw e;
                }
            }
        }
    }
}
