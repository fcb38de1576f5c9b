package io.kraft.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a JUnit 5 test a started {@link KraftCluster} as a parameter (of a test, {@code @BeforeEach} or
 * {@code @BeforeAll} method). On a class, the class's tests share one cluster, closed after the last of them; on a
 * method, that test gets its own.
 */
@Documented
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(KraftClusterExtension.class)
public @interface KraftTest {
    /** Combined nodes (broker and controller each), when {@link #controllers()} is 0. */
    int nodes() default 1;

    /** Dedicated controllers; with {@link #brokers()}, a split cluster instead of combined nodes. */
    int controllers() default 0;

    /** Dedicated brokers of a split cluster. */
    int brokers() default 0;

    /** Properties of every node, as "key=value". */
    String[] properties() default {};
}
