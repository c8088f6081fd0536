// osls plugin: keeps `npm run package` offline with a layer. osls's AwsCompileLayers asks
// CloudFormation, while packaging, whether each layer changed since the last deploy (to skip its
// upload), which needs AWS credentials; packaging must not. A deploy has credentials and keeps the
// check, so an unchanged kustomize layer (a ~4 MB zip) is neither uploaded nor published again.
class OfflineLayers {
  constructor(serverless) {
    if (serverless.processedInput?.commands?.[0] === 'deploy') return;
    const compile = serverless.pluginManager.plugins.find((p) => p.constructor.name === 'AwsCompileLayers');
    if (compile) compile.compareWithLastLayer = async () => {};
  }
}
module.exports = OfflineLayers;
