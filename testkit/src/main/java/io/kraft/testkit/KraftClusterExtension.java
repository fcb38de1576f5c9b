package io.kraft.testkit;

import java.lang.reflect.AnnotatedElement;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link KraftTest}: resolves {@link KraftCluster} parameters to a cluster started as the
 * nearest {@code @KraftTest} says, kept in that scope's store and closed with it (a cluster is {@link AutoCloseable},
 * which JUnit closes). Usable directly with {@code @ExtendWith}; without an annotation, one combined node per class.
 */
public final class KraftClusterExtension implements ParameterResolver {
    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(KraftClusterExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == KraftCluster.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        ExtensionContext scope = scopeOf(context);
        KraftTest settings = annotationOn(scope.getElement()).orElse(null);
        return scope.getStore(NAMESPACE).getOrComputeIfAbsent(scope.getUniqueId(), key -> start(settings),
                KraftCluster.class);
    }

    /** The test method's context if the method carries {@code @KraftTest}, else the nearest class's. */
    private static ExtensionContext scopeOf(ExtensionContext context) {
        ExtensionContext current = context;
        while (current != null) {
            if (current.getTestMethod().isPresent() && annotationOn(current.getElement()).isPresent()) {
                return current;
            }
            if (current.getTestMethod().isEmpty() && current.getTestClass().isPresent()) {
                return current;
            }
            current = current.getParent().orElse(null);
        }
        throw new ParameterResolutionException("a KraftCluster parameter needs a test class");
    }

    private static Optional<KraftTest> annotationOn(Optional<AnnotatedElement> element) {
        return element.flatMap(e -> AnnotationSupport.findAnnotation(e, KraftTest.class));
    }

    private static KraftCluster start(KraftTest settings) {
        KraftCluster.Builder builder = KraftCluster.builder();
        if (settings != null) {
            if (settings.controllers() > 0 || settings.brokers() > 0) {
                builder.split(settings.controllers(), settings.brokers());
            } else {
                builder.nodes(settings.nodes());
            }
            for (String property : settings.properties()) {
                int equals = property.indexOf('=');
                if (equals <= 0) {
                    throw new ParameterResolutionException("@KraftTest property '" + property + "' is not key=value");
                }
                builder.property(property.substring(0, equals).trim(), property.substring(equals + 1).trim());
            }
        }
        return builder.start();
    }
}
