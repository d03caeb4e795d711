// Stands in for a stylesheet import in Jest (see jest.config.js).
export default {};
