// osls plugin: keeps `npm run package` offline with a layer. osls's AwsCompileLayers asks
// CloudFormation, while packaging, whether each layer changed since the last deploy (to skip its
// upload), which needs AWS credentials; packaging must not. Without the check a deploy uploads the
// kustomize layer again (a ~4 MB zip) and publishes a new layer version.
class OfflineLayers {
  constructor(serverless) {
    const compile = serverless.pluginManager.plugins.find((p) => p.constructor.name === 'AwsCompileLayers');
    if (compile) compile.compareWithLastLayer = async () => {};
  }
}
module.exports = OfflineLayers;
