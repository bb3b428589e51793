// The AWS SDK warns on every start that its 2027 releases need Node 22. Lambda
// runs Node 22; locally the lock file pins releases that run here, so the
// warning tells a developer nothing. Import this first.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
