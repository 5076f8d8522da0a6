package kube

// The subset of the Kubernetes API that the manifests use, with its JSON
// field names (k8s.io/api/core/v1 and batch/v1). The tests decode the
// output strictly into those types, so a misspelt field fails there.

type meta struct {
	Name      string            `json:"name,omitempty"`
	Namespace string            `json:"namespace,omitempty"`
	Labels    map[string]string `json:"labels,omitempty"`
}

type configMap struct {
	APIVersion string            `json:"apiVersion"`
	Kind       string            `json:"kind"`
	Metadata   meta              `json:"metadata"`
	Data       map[string]string `json:"data"`
}

type job struct {
	APIVersion string  `json:"apiVersion"`
	Kind       string  `json:"kind"`
	Metadata   meta    `json:"metadata"`
	Spec       jobSpec `json:"spec"`
}

type jobSpec struct {
	CompletionMode string      `json:"completionMode"`
	Completions    int         `json:"completions"`
	Parallelism    int         `json:"parallelism"`
	BackoffLimit   *int        `json:"backoffLimit,omitempty"`
	Template       podTemplate `json:"template"`
}

type podTemplate struct {
	Metadata meta    `json:"metadata"`
	Spec     podSpec `json:"spec"`
}

type podSpec struct {
	RestartPolicy string          `json:"restartPolicy"`
	Containers    []containerSpec `json:"containers"`
	Volumes       []volume        `json:"volumes,omitempty"`
}

type containerSpec struct {
	Name            string           `json:"name"`
	Image           string           `json:"image"`
	Args            []string         `json:"args"`
	Ports           []containerPort  `json:"ports,omitempty"`
	Env             []envVar         `json:"env,omitempty"`
	Resources       resources        `json:"resources"`
	VolumeMounts    []volumeMount    `json:"volumeMounts,omitempty"`
	SecurityContext *securityContext `json:"securityContext,omitempty"`
}

type envVar struct {
	Name      string     `json:"name"`
	Value     string     `json:"value,omitempty"`
	ValueFrom *envSource `json:"valueFrom,omitempty"`
}

type envSource struct {
	FieldRef     *fieldRef `json:"fieldRef,omitempty"`
	SecretKeyRef *keyRef   `json:"secretKeyRef,omitempty"`
}

type fieldRef struct {
	FieldPath string `json:"fieldPath"`
}

type keyRef struct {
	Name string `json:"name"`
	Key  string `json:"key"`
}

type resources struct {
	Requests map[string]string `json:"requests,omitempty"`
	Limits   map[string]string `json:"limits,omitempty"`
}

type volumeMount struct {
	Name      string `json:"name"`
	MountPath string `json:"mountPath"`
	ReadOnly  bool   `json:"readOnly,omitempty"`
}

type volume struct {
	Name      string           `json:"name"`
	ConfigMap *configMapSource `json:"configMap,omitempty"`
}

type configMapSource struct {
	Name string `json:"name"`
}

type securityContext struct {
	AllowPrivilegeEscalation *bool  `json:"allowPrivilegeEscalation,omitempty"`
	RunAsNonRoot             *bool  `json:"runAsNonRoot,omitempty"`
	RunAsUser                *int64 `json:"runAsUser,omitempty"`
}

type containerPort struct {
	Name          string `json:"name"`
	ContainerPort int    `json:"containerPort"`
	Protocol      string `json:"protocol"`
}

type service struct {
	APIVersion string      `json:"apiVersion"`
	Kind       string      `json:"kind"`
	Metadata   meta        `json:"metadata"`
	Spec       serviceSpec `json:"spec"`
}

type serviceSpec struct {
	ClusterIP                string            `json:"clusterIP"`
	PublishNotReadyAddresses bool              `json:"publishNotReadyAddresses"`
	Selector                 map[string]string `json:"selector"`
	Ports                    []servicePort     `json:"ports"`
}

type servicePort struct {
	Name       string `json:"name"`
	Port       int    `json:"port"`
	TargetPort int    `json:"targetPort"`
	Protocol   string `json:"protocol"`
}
