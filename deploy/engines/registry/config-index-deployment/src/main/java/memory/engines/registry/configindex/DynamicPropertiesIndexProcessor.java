package memory.engines.registry.configindex;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import javax.inject.Singleton;

import org.jboss.jandex.AnnotationInstance;
import org.jboss.jandex.AnnotationTarget;
import org.jboss.jandex.AnnotationValue;
import org.jboss.jandex.DotName;
import org.jboss.jandex.FieldInfo;
import org.jboss.jandex.Type;

import apicurio.common.app.components.config.index.DynamicPropertiesInfoRecorder;
import io.apicurio.common.apps.config.DynamicConfigPropertyDef;
import io.apicurio.common.apps.config.DynamicConfigPropertyList;
import io.quarkus.arc.deployment.SyntheticBeanBuildItem;
import io.quarkus.deployment.annotations.BuildStep;
import io.quarkus.deployment.annotations.ExecutionTime;
import io.quarkus.deployment.annotations.Record;
import io.quarkus.deployment.builditem.CombinedIndexBuildItem;

/**
 * The build step of Apicurio's config index extension, whose own deployment jar Maven Central does not serve.
 * Apicurio marks the settings an admin may change at run time with @Dynamic next to @ConfigProperty; its runtime
 * (DynamicConfigPropertyIndexImpl) expects a DynamicConfigPropertyList bean naming them, which the extension's
 * runtime recorder turns into a value. This step finds those fields in the application index and hands them to
 * that recorder, so the runtime behaves as with the original jar.
 */
public class DynamicPropertiesIndexProcessor {

    private static final DotName DYNAMIC = DotName.createSimple("io.apicurio.common.apps.config.Dynamic");
    private static final DotName CONFIG_PROPERTY = DotName.createSimple("org.eclipse.microprofile.config.inject.ConfigProperty");
    private static final DotName SUPPLIER = DotName.createSimple("java.util.function.Supplier");

    @BuildStep
    @Record(ExecutionTime.STATIC_INIT)
    SyntheticBeanBuildItem dynamicProperties(CombinedIndexBuildItem index, DynamicPropertiesInfoRecorder recorder) throws ClassNotFoundException {
        List<DynamicConfigPropertyDef> properties = new ArrayList<>();
        for (AnnotationInstance dynamic : index.getIndex().getAnnotations(DYNAMIC)) {
            if (dynamic.target().kind() != AnnotationTarget.Kind.FIELD) {
                continue;
            }
            FieldInfo field = dynamic.target().asField();
            AnnotationInstance configProperty = field.annotation(CONFIG_PROPERTY);
            if (configProperty == null) {
                continue;
            }
            DynamicConfigPropertyDef property = new DynamicConfigPropertyDef(
                    configProperty.value("name").asString(),
                    valueClass(field),
                    stringOrNull(configProperty.value("defaultValue")));
            property.setLabel(stringOrNull(dynamic.value("label")));
            property.setDescription(stringOrNull(dynamic.value("description")));
            AnnotationValue requires = dynamic.value("requires");
            property.setRequires(requires == null ? new String[0] : requires.asStringArray());
            properties.add(property);
        }
        // The index's order varies between builds; a stable order keeps the admin API's listing stable.
        properties.sort(Comparator.comparing(DynamicConfigPropertyDef::getName));
        return SyntheticBeanBuildItem.configure(DynamicConfigPropertyList.class)
                .scope(Singleton.class)
                .unremovable()
                .runtimeValue(recorder.initializePropertiesInfo(properties))
                .done();
    }

    /** Dynamic settings are injected as Supplier<T> so a change is seen on the next get(); T is the value's class. */
    private static Class<?> valueClass(FieldInfo field) throws ClassNotFoundException {
        Type type = field.type();
        if (type.kind() == Type.Kind.PARAMETERIZED_TYPE && type.name().equals(SUPPLIER)) {
            type = type.asParameterizedType().arguments().get(0);
        }
        return Class.forName(type.name().toString(), false, Thread.currentThread().getContextClassLoader());
    }

    private static String stringOrNull(AnnotationValue value) {
        return value == null ? null : value.asString();
    }
}
